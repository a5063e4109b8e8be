//! Writes the built-in values (`src/tablebase/builtin.bin`, [`BuiltinTables`]) from the
//! movement tables of `baghchal tb gen --out DIR` (default rules):
//!
//! ```sh
//! cargo run --release -- tb gen --out /tmp/movement
//! cargo run --release --example tb_builtin -- /tmp/movement src/tablebase/builtin.bin
//! ```

use baghchal::tablebase::builtin::BuiltinTables;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, out] = args.as_slice() else {
        eprintln!("usage: tb_builtin TABLE_DIR OUT_FILE");
        std::process::exit(2);
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let result = BuiltinTables::encode(Path::new(dir), threads)
        .map_err(|e| e.to_string())
        .and_then(|bytes| {
            std::fs::write(out, &bytes)
                .map(|()| bytes.len())
                .map_err(|e| format!("cannot write \"{out}\": {e}"))
        });
    match result {
        Ok(len) => println!("{out}: {len} bytes"),
        Err(error) => {
            eprintln!("tb_builtin: {error}");
            std::process::exit(1);
        }
    }
}
