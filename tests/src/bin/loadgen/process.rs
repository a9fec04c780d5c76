//! The server process seen from outside: its CPU time and memory from `/proc`, and the
//! generator kept off its core.

use std::process::Stdio;

/// Moves this process off `core` (onto every other core), with `taskset`.
pub fn pin_self_away_from(core: usize) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let others: Vec<String> = (0..cores)
        .filter(|&c| c != core)
        .map(|c| c.to_string())
        .collect();
    if others.is_empty() {
        println!("only one core: the load generator shares it with the server");
        return;
    }
    let pinned = std::process::Command::new("taskset")
        .args(["-a", "-c", "-p", &others.join(",")])
        .arg(std::process::id().to_string())
        .stdout(Stdio::null())
        .status();
    match pinned {
        Ok(status) if status.success() => {
            println!(
                "server on core {core}, load generator on cores {}",
                others.join(",")
            )
        }
        _ => println!("could not pin the load generator (taskset): it may share the server's core"),
    }
}

/// CPU time (user + system) a process has used, in seconds.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may contain spaces) start at field 3.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15; `fields` starts at field 3. Ticks are 1/100 s here.
    (ticks(11) + ticks(12)) / 100.0
}

/// The resident set size of a process, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
