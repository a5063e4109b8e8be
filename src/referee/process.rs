//! The operating-system side of an engine process: whether it has ended (checked without
//! reaping it), how it ended (exit status or signal), and the kill of its whole process group.
//!
//! An engine is started as the leader of a process group of its own
//! ([`EngineProcess::spawn`](super::engine_process::EngineProcess::spawn)); the children it
//! starts are in that group unless they leave it, so killing the group ends them too, whether
//! the leader is still running or has already exited. The leader is reaped only after the group
//! has been killed: an unreaped leader (a zombie) keeps its pid, which is the group's id, from
//! being reused, so the kill cannot reach an unrelated group.

use std::fmt;
use std::process::Child;

/// How an engine process ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExitReason {
    /// It exited with this status.
    Status(i32),
    /// A signal killed it.
    Signal(i32),
}

impl ExitReason {
    /// For a termination reason: `crashed: exit status 1`, `crashed: killed by signal 11
    /// (SIGSEGV)`, `exited: exit status 0`.
    pub fn describe(self) -> String {
        match self {
            ExitReason::Status(0) => format!("exited: {self}"),
            _ => format!("crashed: {self}"),
        }
    }
}

/// The usual name of a signal number, for the common ones.
fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => return None,
    })
}

impl fmt::Display for ExitReason {
    /// `exit status 1`, `killed by signal 11 (SIGSEGV)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExitReason::Status(status) => write!(f, "exit status {status}"),
            ExitReason::Signal(signal) => {
                write!(f, "killed by signal {signal}")?;
                match signal_name(signal) {
                    Some(name) => write!(f, " ({name})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl From<std::process::ExitStatus> for ExitReason {
    fn from(status: std::process::ExitStatus) -> ExitReason {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some(signal) = status.signal() {
                return ExitReason::Signal(signal);
            }
        }
        ExitReason::Status(status.code().unwrap_or(-1))
    }
}

/// How `child` ended, if it has; it is left unreaped (see the module docs).
#[cfg(unix)]
pub fn peek_exit(child: &Child) -> Option<ExitReason> {
    let pid = libc::id_t::try_from(child.id()).ok()?;
    // SAFETY: siginfo_t is plain data; all zeroes is a valid value that waitid overwrites.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid only writes to `info`; WNOWAIT leaves the child waitable.
    let status = unsafe {
        libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: after a successful waitid the child fields of `info` are set (si_pid 0: no
    // state change yet).
    let (exited_pid, code) = unsafe { (info.si_pid(), info.si_status()) };
    if status != 0 || exited_pid == 0 {
        return None;
    }
    match info.si_code {
        libc::CLD_EXITED => Some(ExitReason::Status(code)),
        libc::CLD_KILLED | libc::CLD_DUMPED => Some(ExitReason::Signal(code)),
        _ => None,
    }
}

/// Without waitid, an exit is only seen when the process is reaped
/// ([`kill_group_and_reap`]).
#[cfg(not(unix))]
pub fn peek_exit(_child: &Child) -> Option<ExitReason> {
    None
}

/// Kills `child`'s whole process group (SIGKILL) if it has not been reaped yet, then reaps it;
/// returns how it ended (None if that cannot be told).
pub fn kill_group_and_reap(child: &mut Child) -> Option<ExitReason> {
    #[cfg(unix)]
    {
        if let Ok(group) = libc::pid_t::try_from(child.id()) {
            // SAFETY: killpg only sends a signal. The group is the engine's own, and its id
            // cannot have been reused because its leader (`child`) is not reaped yet.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = child.kill();
    }
    child.wait().ok().map(ExitReason::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_name_the_status_or_the_signal() {
        assert_eq!(ExitReason::Status(1).describe(), "crashed: exit status 1");
        assert_eq!(ExitReason::Status(0).describe(), "exited: exit status 0");
        assert_eq!(
            ExitReason::Signal(11).describe(),
            "crashed: killed by signal 11 (SIGSEGV)"
        );
        assert_eq!(ExitReason::Signal(64).to_string(), "killed by signal 64");
    }

    #[cfg(unix)]
    #[test]
    fn exits_are_seen_without_reaping_and_groups_are_killed() {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sh")
            .args(["-c", "exit 3"])
            .process_group(0)
            .spawn()
            .unwrap();
        let mut seen = None;
        for _ in 0..1000 {
            seen = peek_exit(&child);
            if seen.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(seen, Some(ExitReason::Status(3)));
        // Still unreaped: seen again, and the reap gives the same status.
        assert_eq!(peek_exit(&child), Some(ExitReason::Status(3)));
        assert_eq!(kill_group_and_reap(&mut child), Some(ExitReason::Status(3)));
        let mut sleeper = std::process::Command::new("sleep")
            .arg("600")
            .process_group(0)
            .spawn()
            .unwrap();
        assert_eq!(peek_exit(&sleeper), None);
        assert_eq!(
            kill_group_and_reap(&mut sleeper),
            Some(ExitReason::Signal(9))
        );
    }
}
