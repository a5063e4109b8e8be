# Issue 28 part 2: order-0 entropy, byte contexts, zstd and xz on the first 16 MiB of each side of
# placement layers. Usage: python3 tools/tb_compress_study.py DIR/place-05-2.bctb ... (needs zstd, xz)
import math, struct, subprocess, sys, os, tempfile, time
from collections import Counter
PREFIX = 16 << 20  # bytes = 64 Mi values
def H(counts):
    t = sum(counts); return -sum(c/t*math.log2(c/t) for c in counts if c)
for path in sys.argv[1:]:
    f = open(path, 'rb'); head = f.read(88)
    n = struct.unpack_from('<Q', head, 16)[0]; side = (n + 3) // 4
    name = os.path.basename(path)
    for s, label in ((0, 'goats'), (1, 'tigers')):
        f.seek(88 + s * side); raw = f.read(min(PREFIX, side)); vals = len(raw) * 4
        hist = [raw.count(bytes([b])) for b in range(256)]
        v = [0] * 4
        for b, c in enumerate(hist):
            for k in range(4): v[(b >> (2 * k)) & 3] += c
        small = raw[:4 << 20]
        pairs = Counter(zip(small, small[1:]))
        prev = Counter(small[:-1])
        h1 = -sum(c / (len(small) - 1) * math.log2(c / prev[a]) for (a, b), c in pairs.items()) / 4
        out = os.path.join(tempfile.gettempdir(), f'{name}.{label}.{os.getpid()}.bin'); open(out, 'wb').write(raw)
        res = {}
        for cmd, ext in ((['zstd', '-19', '--long=27', '-T1', '-q', '-f', '-k', out], '.zst'),
                         (['xz', '-9e', '-T1', '-k', '-f', out], '.xz')):
            t = time.time(); subprocess.run(cmd, check=True)
            res[ext] = (os.path.getsize(out + ext) * 8 / vals, time.time() - t); os.remove(out + ext)
        os.remove(out)
        print(f'{name} {label} (first {vals} of {n}): order0 {H(v):.3f}, per-byte {H(hist)/4:.3f}, '
              f'order1-byte {h1:.3f}, zstd-19 {res[".zst"][0]:.3f} ({res[".zst"][1]:.0f} s), '
              f'xz-9e {res[".xz"][0]:.3f} ({res[".xz"][1]:.0f} s) bit/position', flush=True)
