//! The jq engine a binding's `map` runs on (the `jaq` crates), bounded: a map may not define
//! functions (so it cannot recurse), every generator that can run forever (`range`, `repeat`,
//! `while`, `until`, `recurse`) spends one step of a budget per value, and the output must be one
//! value no larger than a byte budget. A map that loops or explodes stops with an error saying so.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use jaq_core::load::lex::{Lexer, StrPart, Tok, Token};
use jaq_core::load::{Arena, File, Loader};
use jaq_core::native::{Fun, bome, v};
use jaq_core::{Compiler, Ctx, Vars, data};
use jaq_json::{Num, Val};
use serde_json::Value;

use crate::binding::error_text;

/// Values the looping generators may produce in one run of a map (all of them together).
pub const MAX_STEPS: u64 = 100_000;

/// Bytes of JSON one map may output.
pub const MAX_OUTPUT_BYTES: usize = 4 * 1024 * 1024;

/// Characters a map program may have.
pub const MAX_PROGRAM_CHARS: usize = 4_000;

/// Compiled maps kept for the next run (a widget refreshes with the same map again and again).
const CACHED_MAPS: usize = 16;

type Data = data::JustLut<Val>;
type Filter = jaq_core::compile::Filter<jaq_core::Native<Data>>;

/// Our versions of jq's unbounded generators, each spending a step per value; they shadow the
/// standard library's for the map (the library's own definitions keep theirs, which only walk
/// the input).
const BOUNDED_GENERATORS: &str = r#"
def while(cond; update): def rec: if cond then ., (update | autoui_step | rec) else empty end; rec;
def until(cond; update): def rec: if cond then . else update | autoui_step | rec end; rec;
def repeat(f): def rec: f, (f | autoui_step | rec); rec;
def recurse(f): def rec: ., (f | autoui_step | rec); rec;
def recurse(f; cond): recurse(f | select(cond));
def range($from; $upto; $by):
  $from | while(if $by > 0 then . < $upto elif $by < 0 then . > $upto else true end; . + $by);
def range($from; $upto): range($from; $upto; 1);
def range($upto): range(0; $upto; 1);
"#;

thread_local! {
    /// Steps left in the map running on this thread (maps run synchronously, one at a time).
    static STEPS_LEFT: Cell<u64> = const { Cell::new(0) };
    /// The maps compiled last, newest last.
    static COMPILED: RefCell<Vec<(String, Rc<Filter>)>> = const { RefCell::new(Vec::new()) };
}

/// Why a map produced no params.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MapError {
    #[error("the map is not a valid jq program: {0}")]
    Syntax(String),
    #[error("the map may not define functions (`def`): write it as one expression")]
    Definition,
    #[error("the map is {0} characters long; at most {MAX_PROGRAM_CHARS} are allowed")]
    TooLong(usize),
    #[error("the map failed: {0}")]
    Runtime(String),
    #[error("the map was stopped after {MAX_STEPS} steps (a loop that does not end, or far too much data)")]
    TooManySteps,
    #[error("the map produced no value; it must produce the widget's params")]
    NoOutput,
    #[error("the map produced more than one value; wrap it in [...] or pick one with first(...)")]
    SeveralOutputs,
    #[error("the map's output is larger than {} MB", MAX_OUTPUT_BYTES / (1024 * 1024))]
    TooLarge,
}

/// Checks that `program` compiles, without running it.
pub fn check(program: &str) -> Result<(), MapError> {
    compile(program).map(|_| ())
}

/// Runs `program` on `input` and returns its one output.
pub fn run(program: &str, input: &Value) -> Result<Value, MapError> {
    let filter = compiled(program)?;
    let input = to_val(input);
    STEPS_LEFT.with(|steps| steps.set(MAX_STEPS));
    let ctx = Ctx::<Data>::new(&filter.lut, Vars::new([]));
    let mut outputs = filter.id.run((ctx, input));
    let first = match outputs.next() {
        None => return Err(MapError::NoOutput),
        Some(output) => output.map_err(exception)?,
    };
    if let Some(second) = outputs.next() {
        second.map_err(exception)?;
        return Err(MapError::SeveralOutputs);
    }
    let mut budget = MAX_OUTPUT_BYTES;
    to_json(&first, &mut budget).ok_or(MapError::TooLarge)
}

/// `value` as jq's value, built directly: through serde, each object's table grew as its fields
/// arrived, which was most of a 1,000-row input's conversion.
fn to_val(value: &Value) -> Val {
    match value {
        Value::Null => Val::Null,
        Value::Bool(flag) => Val::Bool(*flag),
        Value::Number(number) => Val::Num(match (number.as_i64(), number.as_u64()) {
            (Some(int), _) => Num::from_integral(int),
            (None, Some(int)) => Num::from_integral(int),
            _ => Num::Float(number.as_f64().unwrap_or(f64::NAN)),
        }),
        Value::String(text) => Val::utf8_str(text.clone().into_bytes()),
        Value::Array(items) => items.iter().map(to_val).collect(),
        Value::Object(fields) => {
            let mut object = jaq_json::Map::with_capacity_and_hasher(fields.len(), Default::default());
            for (key, field) in fields {
                object.insert(Val::utf8_str(key.clone().into_bytes()), to_val(field));
            }
            Val::obj(object)
        }
    }
}

/// The map's output as JSON, built directly rather than printed and parsed again (which took most of
/// a 1,000-row map's time); `None` once it has spent `budget`, the bytes its JSON text may have
/// (counted without escapes, so a bound rather than the exact length).
fn to_json(value: &Val, budget: &mut usize) -> Option<Value> {
    Some(match value {
        Val::Null => {
            spend(budget, 4)?;
            Value::Null
        }
        Val::Bool(flag) => {
            spend(budget, 5)?;
            Value::Bool(*flag)
        }
        Val::Num(number) => {
            let json = number_json(number);
            // Integers are counted without printing them (most of a table's numbers).
            let bytes = match number {
                Num::Int(int) => int.unsigned_abs().checked_ilog10().map_or(1, |digits| digits as usize + 1) + usize::from(*int < 0),
                _ => json.to_string().len(),
            };
            spend(budget, bytes)?;
            json
        }
        Val::TStr(bytes) | Val::BStr(bytes) => {
            spend(budget, bytes.len() + 2)?;
            Value::String(String::from_utf8_lossy(bytes).into_owned())
        }
        Val::Arr(items) => {
            spend(budget, items.len() + 1)?;
            Value::Array(items.iter().map(|item| to_json(item, budget)).collect::<Option<_>>()?)
        }
        Val::Obj(fields) => {
            spend(budget, fields.len() * 2 + 1)?;
            let mut object = serde_json::Map::with_capacity(fields.len());
            for (key, field) in fields.iter() {
                let key = match key {
                    Val::TStr(bytes) | Val::BStr(bytes) => String::from_utf8_lossy(bytes).into_owned(),
                    other => other.to_string(),
                };
                spend(budget, key.len() + 2)?;
                let field = to_json(field, budget)?;
                object.insert(key, field);
            }
            Value::Object(object)
        }
    })
}

fn spend(budget: &mut usize, bytes: usize) -> Option<()> {
    *budget = budget.checked_sub(bytes)?;
    Some(())
}

/// A jq number as JSON: integers as integers, NaN as null and infinities as the largest float, as
/// jq prints them.
fn number_json(number: &Num) -> Value {
    match number {
        Num::Int(int) => Value::from(*int as i64),
        Num::Float(float) if float.is_nan() => Value::Null,
        Num::Float(float) => Value::from(float.clamp(f64::MIN, f64::MAX)),
        Num::BigInt(_) | Num::Dec(_) => {
            let text = number.to_string();
            serde_json::from_str(&text).unwrap_or_else(|_| text.parse::<f64>().map_or(Value::Null, Value::from))
        }
    }
}

/// `program` compiled, from the cache when it ran lately.
fn compiled(program: &str) -> Result<Rc<Filter>, MapError> {
    let cached = COMPILED.with(|cache| cache.borrow().iter().find(|(known, _)| known == program).map(|(_, filter)| filter.clone()));
    if let Some(filter) = cached {
        return Ok(filter);
    }
    let filter = Rc::new(compile(program)?);
    COMPILED.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHED_MAPS {
            cache.remove(0);
        }
        cache.push((program.to_owned(), filter.clone()));
    });
    Ok(filter)
}

fn compile(program: &str) -> Result<Filter, MapError> {
    let length = program.chars().count();
    if length > MAX_PROGRAM_CHARS {
        return Err(MapError::TooLong(length));
    }
    let tokens = Lexer::new(program)
        .lex()
        .map_err(|errors| MapError::Syntax(describe_near(program, errors.iter().map(|error| error.1))))?;
    if defines(&tokens) {
        return Err(MapError::Definition);
    }
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .chain(bounded_generators());
    let loader = Loader::new(defs);
    let arena = Arena::default();
    let modules = loader
        .load(&arena, File { code: program, path: () })
        .map_err(|errors| MapError::Syntax(load_errors(program, errors)))?;
    let funs = jaq_core::funs()
        .chain(jaq_std::base_funs())
        .chain(jaq_json::funs())
        .chain(unavailable())
        .chain([step()]);
    Compiler::default().with_funs(funs).compile(modules).map_err(|errors| {
        let undefined: Vec<String> = errors
            .into_iter()
            .flat_map(|(_, errors)| errors)
            .map(|(name, undefined)| format!("{} `{name}` is not defined", undefined.as_str()))
            .collect();
        MapError::Syntax(undefined.join("; "))
    })
}

fn bounded_generators() -> impl Iterator<Item = jaq_core::load::parse::Def<&'static str>> {
    jaq_core::load::parse(BOUNDED_GENERATORS, |parser| parser.defs())
        .expect("the bounded generators parse")
        .into_iter()
}

/// `autoui_step`: passes its input on, or stops the map when the step budget is spent.
fn step() -> Fun<Data> {
    jaq_core::native::run(("autoui_step", v(0), |cv| {
        let left = STEPS_LEFT.with(|steps| {
            let left = steps.get().saturating_sub(1);
            steps.set(left);
            left
        });
        if left == 0 {
            bome(Err(jaq_core::Error::str(STEPS_SPENT)))
        } else {
            bome(Ok(cv.1))
        }
    }))
}

/// Natives the standard library's definitions name that our build leaves out (regular expressions,
/// dates, formats, most of libm, logging): each fails with a message saying so when a map calls it.
fn unavailable() -> impl Iterator<Item = Fun<Data>> {
    const NO_ARGUMENTS: [&str; 12] = [
        "stderr_empty", "debug_empty", "ilogb", "tgamma", "todateiso8601", "fromdateiso8601", "escape_html",
        "unescape_html", "encode_uri", "decode_uri", "encode_base64", "decode_base64",
    ];
    const TWO_ARGUMENTS: [&str; 8] =
        ["scalbln", "pow", "remainder", "copysign", "nextafter", "matches", "split_", "split_matches"];
    let refuse: jaq_core::RunPtr<Data> = |_| {
        bome(Err(jaq_core::Error::str(
            "this function (regular expressions, dates, @formats and most maths) is not available in widget maps",
        )))
    };
    NO_ARGUMENTS
        .into_iter()
        .map(move |name| jaq_core::native::run::<Data>((name, v(0), refuse)))
        .chain(TWO_ARGUMENTS.into_iter().map(move |name| jaq_core::native::run::<Data>((name, v(2), refuse))))
}

/// The error text `autoui_step` raises, recognised again in [`exception`].
const STEPS_SPENT: &str = "autoui: step budget spent";

fn exception(exception: jaq_core::Exn<Val>) -> MapError {
    match exception.get_err() {
        Ok(error) => {
            let message = error.to_string();
            if message.contains(STEPS_SPENT) || STEPS_LEFT.with(Cell::get) == 0 {
                MapError::TooManySteps
            } else {
                // jq quotes the value it failed on, which may be the whole input.
                MapError::Runtime(error_text::shorten(&message))
            }
        }
        Err(exception) => match exception.get_halt() {
            Ok(code) => MapError::Runtime(format!("it called halt ({code})")),
            Err(_) => MapError::Runtime("it stopped unexpectedly".to_owned()),
        },
    }
}

/// Whether the tokens (inside brackets and string interpolations too) contain the word `def`.
fn defines(tokens: &[Token<&str>]) -> bool {
    tokens.iter().any(|Token(text, tok)| match tok {
        Tok::Word => *text == "def",
        Tok::Block(inner) => defines(inner),
        Tok::Str(parts) => parts.iter().any(|part| match part {
            StrPart::Term(token) => defines(std::slice::from_ref(token)),
            _ => false,
        }),
        _ => false,
    })
}

fn load_errors(program: &str, errors: jaq_core::load::Errors<&str, ()>) -> String {
    use jaq_core::load::Error;
    let described: Vec<String> = errors
        .into_iter()
        .map(|(_, error)| match error {
            Error::Io(errors) => errors.into_iter().map(|(_, message)| message).collect::<Vec<_>>().join("; "),
            Error::Lex(errors) => describe_near(program, errors.iter().map(|error| error.1)),
            Error::Parse(errors) => describe_near(program, errors.iter().map(|error| error.1)),
        })
        .collect();
    described.join("; ")
}

/// "unexpected input at character N: `...`" for each place the lexer or parser stopped at.
fn describe_near<'a>(program: &str, places: impl Iterator<Item = &'a str>) -> String {
    let described: Vec<String> = places
        .map(|rest| {
            let offset = (rest.as_ptr() as usize).saturating_sub(program.as_ptr() as usize).min(program.len());
            let at = program[..offset].chars().count() + 1;
            let snippet: String = rest.chars().take(20).collect();
            if snippet.is_empty() {
                "the program ends too early".to_owned()
            } else {
                format!("unexpected input at character {at}: `{snippet}`")
            }
        })
        .collect();
    described.join("; ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_map_turns_a_result_into_params() {
        let input = json!({"time": "2026-12-02T05:00:00Z", "rows": [{"n": 2}, {"n": 3}]});
        let params = run(r#"{value: .time, label: "Server time", total: (.rows | map(.n) | add)}"#, &input).unwrap();
        assert_eq!(params, json!({"value": "2026-12-02T05:00:00Z", "label": "Server time", "total": 5}));
    }

    #[test]
    fn standard_library_functions_work() {
        let input = json!([{"k": "b", "v": 1.6}, {"k": "a", "v": 2.2}]);
        let out = run("sort_by(.k) | map(.v | floor) | {items: ., first: first, n: length, s: (.[0] | tostring)}", &input).unwrap();
        assert_eq!(out, json!({"items": [2, 1], "first": 2, "n": 2, "s": "2"}));
        assert_eq!(run("[range(3)]", &json!(null)).unwrap(), json!([0, 1, 2]));
        assert_eq!(run("[limit(3; repeat(1))]", &json!(null)).unwrap(), json!([1, 1, 1]));
        assert_eq!(run("\"a-b\" | split(\"-\")", &json!(null)).unwrap(), json!(["a", "b"]));
    }

    #[test]
    fn a_loop_that_never_ends_is_stopped() {
        for program in ["last(repeat(1))", "[range(1e12)] | length", "0 | until(false; . + 1)", "[recurse(. + 1)] | length", "last(range(0; 1; 0))"] {
            assert_eq!(run(program, &json!(0)), Err(MapError::TooManySteps), "{program}");
        }
    }

    #[test]
    fn a_map_may_not_define_functions_so_it_cannot_recurse() {
        assert_eq!(run("def f: f; f", &json!(0)), Err(MapError::Definition));
        assert_eq!(run("[1] | map(def g: [g, g]; g)", &json!(0)), Err(MapError::Definition));
        assert_eq!(run(r#""\(def f: f; f)""#, &json!(0)), Err(MapError::Definition));
        // A field called "def" is still fine.
        assert_eq!(run(".def", &json!({"def": 1})).unwrap(), json!(1));
    }

    #[test]
    fn an_exploding_output_is_refused() {
        let doubled = "[limit(22; repeat(1))] | reduce .[] as $x (\"ab\"; . + .)";
        assert_eq!(run(doubled, &json!(null)), Err(MapError::TooLarge));
    }

    #[test]
    fn numbers_strings_and_keys_come_out_as_jq_prints_them() {
        let out = run(r#"{int: 3, float: 2.5, big: 123456789012345678901234567890, nan: nan, inf: infinite, s: "é\n", nested: [[], {}]}"#, &json!(null)).unwrap();
        assert_eq!(out["int"], json!(3));
        assert_eq!(out["float"], json!(2.5));
        assert!(out["big"].as_f64().is_some_and(|big| big > 1.2e29), "{out}");
        assert_eq!((&out["nan"], &out["inf"]), (&json!(null), &json!(f64::MAX)));
        assert_eq!(out["s"], json!("é\n"));
        assert_eq!(out["nested"], json!([[], {}]));
        let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 7);
    }

    #[test]
    fn the_input_reaches_the_map_as_it_was_written() {
        let input = json!({"max": u64::MAX, "min": i64::MIN, "neg": -42, "float": -0.125, "text": "é\u{0}\"", "empty": {},
            "rows": [{"b": 2, "a": [null, true, false]}]});
        assert_eq!(run(".", &input).unwrap(), input);
        assert_eq!(run("[.max, .neg] | map(. + 1)", &input).unwrap(), json!([18446744073709551616.0, -41]));
    }

    #[test]
    fn a_map_compiled_once_runs_afresh_each_time() {
        assert_eq!(run("{n: (.a + 1)}", &json!({"a": 1})).unwrap(), json!({"n": 2}));
        assert_eq!(run("{n: (.a + 1)}", &json!({"a": 5})).unwrap(), json!({"n": 6}));
        // Each run has the whole step budget: two runs of 60,000 steps are both fine.
        for _ in 0..2 {
            assert_eq!(run("[range(60000)] | length", &json!(null)).unwrap(), json!(60000));
        }
        // A program that does not compile is not kept: it fails the same way every time.
        for _ in 0..2 {
            assert!(matches!(run("{a: ", &json!(null)), Err(MapError::Syntax(_))));
        }
    }

    #[test]
    fn the_output_must_be_exactly_one_value() {
        assert_eq!(run(".[]", &json!([1, 2])), Err(MapError::SeveralOutputs));
        assert_eq!(run("empty", &json!(1)), Err(MapError::NoOutput));
    }

    #[test]
    fn errors_say_what_went_wrong() {
        let Err(MapError::Syntax(message)) = run("{value: .time", &json!({})) else { panic!("a syntax error") };
        assert!(!message.is_empty(), "{message}");
        let Err(MapError::Syntax(message)) = run("nosuchfn(1)", &json!({})) else { panic!("undefined") };
        assert!(message.contains("nosuchfn"), "{message}");
        let Err(MapError::Runtime(message)) = run(".a + 1", &json!({"a": "x"})) else { panic!("a runtime error") };
        assert!(message.contains("x"), "{message}");
        let Err(MapError::Runtime(message)) = run("error(\"boom\")", &json!({})) else { panic!("error/1") };
        assert!(message.contains("boom"), "{message}");
        assert!(matches!(run("halt", &json!({})), Err(MapError::Runtime(_))));
        let Err(MapError::Runtime(message)) = run("test(\"a\")", &json!("abc")) else { panic!("no regex") };
        assert!(message.contains("not available"), "{message}");
    }
}
