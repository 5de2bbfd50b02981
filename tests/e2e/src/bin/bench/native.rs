//! Reads what the native benches printed: divan's tables (`widget_display`, `table`) and the
//! `context` bench's request sizes. A line the parser cannot find is an error naming the bench, so
//! a changed output never yields a silently missing figure.

use crate::BenchError;

/// One divan benchmark: its path in the tree (`stages/repair_…`) and its timings in ms.
#[derive(Clone, Debug, PartialEq)]
pub struct DivanRow {
    pub name: String,
    pub fastest: f64,
    pub slowest: f64,
    pub median: f64,
    pub mean: f64,
    pub samples: u64,
}

const COLUMNS: [&str; 6] = ["fastest", "slowest", "median", "mean", "samples", "iters"];

/// Parses divan's tree table; columns are found from the header line's positions.
pub fn divan(bench: &str, output: &str) -> Result<Vec<DivanRow>, BenchError> {
    let lines: Vec<Vec<char>> = output.lines().map(|line| line.chars().collect()).collect();
    let header = lines
        .iter()
        .position(|line| COLUMNS.iter().all(|column| contains(line, column)))
        .ok_or_else(|| {
            BenchError::Native(format!("{bench}: no divan table header in its output"))
        })?;
    let starts: Vec<usize> = COLUMNS
        .iter()
        .filter_map(|column| find(&lines[header], column))
        .collect();
    let mut rows = Vec::new();
    let mut groups: Vec<(usize, String)> = Vec::new();
    for line in &lines[header + 1..] {
        if line.len() <= starts[0] {
            continue;
        }
        let label: String = line[..starts[0]].iter().collect();
        let depth = label
            .chars()
            .take_while(|c| matches!(c, '│' | '├' | '╰' | '─' | ' '))
            .count();
        let name = label
            .trim_matches(|c: char| matches!(c, '│' | '├' | '╰' | '─') || c.is_whitespace())
            .to_owned();
        if name.is_empty() {
            continue;
        }
        let cell = |index: usize| -> String {
            let end = starts
                .get(index + 1)
                .copied()
                .unwrap_or(line.len())
                .min(line.len());
            let start = starts[index].min(end);
            line[start..end]
                .iter()
                .collect::<String>()
                .trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_owned()
        };
        groups.retain(|(level, _)| *level < depth);
        let path = groups
            .iter()
            .map(|(_, group)| group.as_str())
            .chain([name.as_str()])
            .collect::<Vec<_>>()
            .join("/");
        if cell(0).is_empty() {
            groups.push((depth, name));
            continue;
        }
        let time = |index: usize| {
            let text = cell(index);
            duration_ms(&text).ok_or_else(|| {
                BenchError::Native(format!(
                    "{bench}: cannot read {text:?} as a duration ({path})"
                ))
            })
        };
        let samples = cell(4);
        rows.push(DivanRow {
            name: path.clone(),
            fastest: time(0)?,
            slowest: time(1)?,
            median: time(2)?,
            mean: time(3)?,
            samples: samples.parse().map_err(|_| {
                BenchError::Native(format!(
                    "{bench}: cannot read {samples:?} as a sample count ({path})"
                ))
            })?,
        });
    }
    if rows.is_empty() {
        return Err(BenchError::Native(format!(
            "{bench}: the divan table has no rows"
        )));
    }
    Ok(rows)
}

fn find(line: &[char], word: &str) -> Option<usize> {
    let word: Vec<char> = word.chars().collect();
    line.windows(word.len())
        .position(|window| window == word.as_slice())
}

fn contains(line: &[char], word: &str) -> bool {
    find(line, word).is_some()
}

/// `1.234 ms`, `950 µs`, `12 ns`, `1.5 s` as milliseconds.
fn duration_ms(text: &str) -> Option<f64> {
    let (number, unit) = text.split_once(' ')?;
    let value: f64 = number.trim().parse().ok()?;
    let scale = match unit.trim() {
        "ps" => 1e-9,
        "ns" => 1e-6,
        "µs" | "μs" | "us" => 1e-3,
        "ms" => 1.0,
        "s" => 1e3,
        _ => return None,
    };
    Some(value * scale)
}

/// What the `context` bench reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Context {
    /// Request body bytes per iteration with the request budget, and without any compression.
    pub iterations: Vec<(usize, u64, u64)>,
    pub system_chars: u64,
    pub tools_bytes: u64,
    pub tools: u64,
}

pub fn context(output: &str) -> Result<Context, BenchError> {
    let missing = |what: &str| BenchError::Native(format!("context: no {what} in its output"));
    let mut iterations = Vec::new();
    let mut in_table = false;
    for line in output.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"iteration") {
            in_table = iterations.is_empty();
            continue;
        }
        if !in_table {
            continue;
        }
        // `iteration  budget B  age-only B  not-compressed B  saved%  raw B`
        match (
            words.first().and_then(|w| w.parse::<usize>().ok()),
            words.get(1),
            words.get(5),
        ) {
            (Some(iteration), Some(budget), Some(full)) => {
                let (Ok(budget), Ok(full)) = (budget.parse(), full.parse()) else {
                    return Err(BenchError::Native(format!(
                        "context: cannot read the row {line:?}"
                    )));
                };
                iterations.push((iteration, budget, full));
            }
            _ => in_table = false,
        }
    }
    if iterations.is_empty() {
        return Err(missing("request-size table"));
    }
    let number_after = |prefix: &str| -> Option<u64> {
        output.lines().find_map(|line| {
            line.strip_prefix(prefix)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
    };
    let tools_line = output
        .lines()
        .find_map(|line| line.strip_prefix("tool JSON: "))
        .ok_or_else(|| missing("tool JSON line"))?;
    let words: Vec<&str> = tools_line.split_whitespace().collect();
    let tools_bytes = words
        .first()
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| missing("tool JSON size"))?;
    let tools = words
        .get(3)
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| missing("tool count"))?;
    Ok(Context {
        iterations,
        system_chars: number_after("system prompt: ")
            .ok_or_else(|| missing("system prompt line"))?,
        tools_bytes,
        tools,
    })
}

/// What the `models` bench reports, per profile (`8k`, `200k`): its `figure NAME VALUE` lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Models {
    pub profiles: Vec<ProfileFigures>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileFigures {
    pub name: String,
    pub request_budget: u64,
    pub iteration_cap: u64,
    pub request_10: u64,
    pub dashboard_iterations: u64,
    pub dashboard_widgets: u64,
    pub dashboard_completed: bool,
    pub staged_input: u64,
    pub staged_largest: u64,
    pub unstaged_input: u64,
    pub unstaged_largest: u64,
}

pub const MODEL_PROFILES: [&str; 2] = ["8k", "200k"];

pub fn models(output: &str) -> Result<Models, BenchError> {
    let figures: std::collections::HashMap<&str, u64> = output
        .lines()
        .filter_map(|line| {
            let mut words = line.strip_prefix("figure ")?.split_whitespace();
            Some((words.next()?, words.next()?.parse().ok()?))
        })
        .collect();
    let profiles = MODEL_PROFILES
        .iter()
        .map(|name| {
            let get = |what: &str| {
                figures.get(format!("{name}_{what}").as_str()).copied().ok_or_else(|| {
                    BenchError::Native(format!("models: no figure {name}_{what} in its output"))
                })
            };
            Ok(ProfileFigures {
                name: (*name).to_owned(),
                request_budget: get("request_budget")?,
                iteration_cap: get("iteration_cap")?,
                request_10: get("request_10")?,
                dashboard_iterations: get("dashboard_iterations")?,
                dashboard_widgets: get("dashboard_widgets")?,
                dashboard_completed: get("dashboard_completed")? == 1,
                staged_input: get("hub_staged_input_bytes")?,
                staged_largest: get("hub_staged_largest_bytes")?,
                unstaged_input: get("hub_unstaged_input_bytes")?,
                unstaged_largest: get("hub_unstaged_largest_bytes")?,
            })
        })
        .collect::<Result<Vec<_>, BenchError>>()?;
    Ok(Models { profiles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_models_bench_gives_each_profiles_figures_and_a_missing_one_is_an_error() {
        let mut output = String::from("profile 8k: context 8192 tokens\n");
        for name in MODEL_PROFILES {
            for (what, value) in [
                ("request_budget", 12_288), ("iteration_cap", 12), ("request_10", 11_000),
                ("dashboard_iterations", 9), ("dashboard_widgets", 3), ("dashboard_completed", 1),
                ("hub_staged_input_bytes", 60_000), ("hub_staged_largest_bytes", 14_000),
                ("hub_unstaged_input_bytes", 2_400_000), ("hub_unstaged_largest_bytes", 800_000),
            ] {
                output.push_str(&format!("figure {name}_{what} {value}\n"));
            }
        }
        let parsed = models(&output).expect("parsed");
        assert_eq!(parsed.profiles.len(), 2);
        assert_eq!(parsed.profiles[1].name, "200k");
        assert_eq!((parsed.profiles[0].request_10, parsed.profiles[0].dashboard_completed), (11_000, true));
        let error = models(&output.replace("figure 200k_request_10 ", "figure 200k_other ")).expect_err("missing");
        assert!(error.to_string().contains("200k_request_10"), "{error}");
    }

    const DIVAN: &str = "\
Timer precision: 20 ns
widget_display                              fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ check_stat_card                          4.27 µs       │ 12.5 µs       │ 4.4 µs        │ 4.6 µs        │ 100     │ 1600
├─ stages                                                 │               │               │               │         │
│  ├─ repair_data_table_1000_rows           250.1 µs      │ 400 µs        │ 260 µs        │ 270 µs        │ 100     │ 100
│  ╰─ validate_data_table_1000_rows         1.097 ms      │ 1.622 ms      │ 1.121 ms      │ 1.149 ms      │ 100     │ 100
╰─ widget_display_stat_card                 20.5 µs       │ 40 µs         │ 22 µs         │ 23 µs         │ 100     │ 400
";

    #[test]
    fn divan_rows_are_read_in_ms_with_their_group_in_the_name() {
        let rows = divan("widget_display", DIVAN).expect("parsed");
        let names: Vec<&str> = rows.iter().map(|row| row.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "check_stat_card",
                "stages/repair_data_table_1000_rows",
                "stages/validate_data_table_1000_rows",
                "widget_display_stat_card"
            ]
        );
        assert!((rows[0].median - 0.0044).abs() < 1e-12);
        assert_eq!(rows[2].fastest, 1.097);
        assert_eq!(rows[2].slowest, 1.622);
        assert_eq!(rows[3].samples, 100);
    }

    #[test]
    fn output_without_a_divan_table_is_an_error_naming_the_bench() {
        let error = divan("table", "error: could not compile").expect_err("no table");
        assert!(error.to_string().contains("table"), "{error}");
    }

    const CONTEXT: &str = "\
request body per iteration (Anthropic wire), 10 iterations, MCP results of 50000 bytes, results truncated to 8000 characters, budget 25000 B
iteration     budget   age only  not compressed    saved  no truncation either
        1     5123 B     5123 B          5123 B     0.0%              5123 B
        2    13456 B    13456 B         13456 B     0.0%             55456 B
       10    24100 B    30100 B         90000 B    73.2%            500000 B
    total   300000 B   400000 B        900000 B    66.7%           2000000 B
request 10 with the budget: 24100 B, within the 25000 B budget

first request (autoui, samples and one MCP server, nothing activated): 9000 B
system prompt: 2100 characters (about 525 tokens at 4 characters a token)
tool JSON: 5400 B for 8 discovery tools
    900 B  widget_display

a 1,000-row data-table shown at iteration 2, then four KPIs: request body per iteration
iteration     budget  not compressed
        1     5000 B          5000 B
";

    #[test]
    fn the_context_bench_gives_sizes_per_iteration_and_the_first_request() {
        let context = context(CONTEXT).expect("parsed");
        assert_eq!(
            context.iterations,
            [(1, 5123, 5123), (2, 13456, 13456), (10, 24100, 90000)]
        );
        assert_eq!(
            (context.system_chars, context.tools_bytes, context.tools),
            (2100, 5400, 8)
        );
    }

    #[test]
    fn a_context_output_without_the_prompt_line_is_an_error() {
        let error =
            context(&CONTEXT.replace("system prompt:", "prompt:")).expect_err("missing line");
        assert!(error.to_string().contains("system prompt"), "{error}");
    }
}
