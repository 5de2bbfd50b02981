//! The machine the figures come from: CPU, cores, memory, system, toolchain, and its load.

use std::process::Command;

#[derive(Clone, Debug)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub memory_gb: f64,
    pub system: String,
    pub rustc: String,
    pub chromedriver: String,
}

impl Machine {
    pub fn describe() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let os_release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
        let driver =
            std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".to_owned());
        Machine {
            cpu: field(&cpuinfo, "model name", ':').unwrap_or_else(|| "unknown CPU".to_owned()),
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            memory_gb: field(&meminfo, "MemTotal", ':')
                .and_then(|kb| kb.split_whitespace().next()?.parse::<f64>().ok())
                .map_or(0.0, |kb| kb / 1_048_576.0),
            system: field(&os_release, "PRETTY_NAME", '=')
                .map(|name| name.trim_matches('"').to_owned())
                .unwrap_or_else(|| "unknown system".to_owned()),
            rustc: version("rustc", &["--version"]),
            chromedriver: version(&driver, &["--version"]),
        }
    }
}

/// The 1, 5 and 15 minute load averages, as the kernel reports them.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|line| {
            line.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn field(text: &str, key: &str, separator: char) -> Option<String> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(separator)?;
        (name.trim() == key).then(|| value.trim().to_owned())
    })
}

fn version(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .and_then(|text| text.lines().next().map(str::to_owned))
        .unwrap_or_else(|| format!("{program}: not found"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_read_from_key_value_text() {
        let cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu";
        assert_eq!(
            field(cpuinfo, "model name", ':').as_deref(),
            Some("AMD EPYC 7B13")
        );
        assert_eq!(
            field(
                "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"",
                "PRETTY_NAME",
                '='
            ),
            Some("\"Debian GNU/Linux 12 (bookworm)\"".to_owned())
        );
        assert_eq!(field(cpuinfo, "cache size", ':'), None);
    }
}
