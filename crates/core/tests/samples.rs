//! The built-in `samples` server: every tool's schema compiles and bad arguments get an error the
//! model can act on; filters narrow the data; the data is internally consistent (totals add up, seats
//! sum to the chamber, owners are people of the directory); the flow recipes name only real tools and
//! widgets and their examples validate; the model sees the recipe tools from the start; and a scripted
//! session turns sample data into widgets on a canvas through the real `autoui` server.

mod common;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::prompt::build_system_prompt;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, UserTurn};
use autoui_core::agent::stop::StopReason;
use autoui_core::autoui::AutoUi;
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::op::CanvasPort;
use autoui_core::dispatch::alias::RecipeRole;
use autoui_core::dispatch::catalog::Catalog;
use autoui_core::ids::{CallId, ServerId};
use autoui_core::llm::model::ToolDef;
use autoui_core::recipes::registry;
use autoui_core::recipes::sanitize::image_url;
use autoui_core::samples::Samples;
use autoui_core::settings::Settings;
use autoui_core::tool::{CallContext, DataSource, LocalServer, Origin, ToolResult};
use autoui_core::tool_name::Protocol;
use autoui_core::widget_kind::WidgetKind;
use common::Counter;
use common::canvas::RecordingCanvas;
use common::clock::FakeClock;
use common::mcp::FakeMcp;
use common::model::{ScriptedModel, Step, call, text};
use futures::executor::block_on;
use serde_json::{Value, json};

const DATA_TOOLS: [&str; 5] = ["monthly_sales", "request_logs", "parliament", "people_directory", "project_plan"];
/// What samples may add to the tools sent with every request (its three recipe tools and two pseudo-tools).
const DISCOVERY_BUDGET_BYTES: usize = 2_000;

fn run(tool: &str, args: Value) -> ToolResult {
    let context = CallContext { origin: Origin::User, cancel: CancelToken::new() };
    block_on(Samples::default().call(tool, args, context))
}

fn ok(tool: &str, args: Value) -> Value {
    let result = run(tool, args);
    assert!(!result.is_error, "{tool} failed: {}", result.text_content());
    serde_json::from_str(&result.text_content()).expect("samples answer JSON text")
}

fn err(tool: &str, args: Value) -> Value {
    let result = run(tool, args);
    assert!(result.is_error, "{tool} should have failed: {}", result.text_content());
    serde_json::from_str(&result.text_content()).expect("samples errors are JSON text")
}

fn array<'v>(value: &'v Value, pointer: &str) -> &'v Vec<Value> {
    value.pointer(pointer).and_then(Value::as_array).unwrap_or_else(|| panic!("no array at {pointer}"))
}

fn int(value: &Value, pointer: &str) -> i64 {
    value.pointer(pointer).and_then(Value::as_i64).unwrap_or_else(|| panic!("no integer at {pointer} in {value}"))
}

fn sum(items: &[Value], field: &str) -> i64 {
    items.iter().map(|item| item[field].as_i64().unwrap_or_else(|| panic!("{field} in {item}"))).sum()
}

// --- Tools and arguments -------------------------------------------------------------------------

#[test]
fn every_tool_has_a_short_description_and_a_closed_schema_that_compiles() {
    let tools = Samples::default().tools();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names[..3], ["search_recipes", "list_recipes", "get_recipe"]);
    assert_eq!(names[3..], DATA_TOOLS);
    for tool in &tools {
        assert!(jsonschema::draft202012::new(&tool.input_schema).is_ok(), "{}", tool.name);
        assert_eq!(tool.input_schema["additionalProperties"], false, "{}", tool.name);
        assert!(tool.read_only, "{}", tool.name);
        assert!(tool.description.len() <= 200, "{}: {} characters", tool.name, tool.description.len());
    }
}

#[test]
fn a_misspelt_filter_is_refused_with_the_allowed_names_and_the_expected_schema() {
    for tool in DATA_TOOLS {
        let error = err(tool, json!({ "regoin": "North" }));
        assert_eq!(error["error"], format!("invalid arguments for {tool}"));
        assert_eq!(error["details"][0]["path"], "/regoin");
        let message = error["details"][0]["message"].as_str().unwrap();
        assert!(message.starts_with("unknown property \"regoin\"; allowed properties:"), "{message}");
        assert_eq!(error["expected_schema"]["additionalProperties"], false);
    }
}

#[test]
fn a_value_outside_an_enum_lists_the_allowed_values() {
    let error = err("monthly_sales", json!({ "region": "Atlantis" }));
    assert_eq!(
        error["details"],
        json!([{ "path": "/region", "message": "string \"Atlantis\" is not allowed; use one of: \"North\", \"South\", \"East\", \"West\"" }])
    );
    let error = err("people_directory", json!({ "team": "Marketing" }));
    assert!(error["details"][0]["message"].as_str().unwrap().contains("\"Platform\""));
}

#[test]
fn wrong_types_and_shapes_say_what_was_expected() {
    let error = err("request_logs", json!({ "limit": "lots" }));
    assert_eq!(error["details"][0]["path"], "/limit");
    assert!(error["details"][0]["message"].as_str().unwrap().starts_with("expected integer, got string"));
    let error = err("request_logs", json!({ "limit": 500 }));
    assert_eq!(error["details"][0]["path"], "/limit");
    let error = err("monthly_sales", json!({ "from": "March 2024" }));
    assert_eq!(error["details"][0]["path"], "/from");
    let error = err("parliament", json!("all"));
    assert_eq!(error["details"][0]["path"], "");
}

#[test]
fn well_formed_arguments_outside_the_data_get_a_specific_error() {
    let error = err("monthly_sales", json!({ "from": "2022-06" }));
    assert_eq!(error["error"], "from \"2022-06\" is outside the data: months run from 2023-01 to 2024-12");
    let error = err("monthly_sales", json!({ "from": "2024-05", "to": "2024-02" }));
    assert_eq!(error["error"], "from (2024-05) is after to (2024-02); give from <= to");
    let error = err("request_logs", json!({ "from": "11:00" }));
    assert!(
        error["error"].as_str().unwrap().starts_with("no logs in that time range: they cover 09:00:00 to 09:59:59")
    );
}

#[test]
fn an_unknown_tool_is_an_error_listing_the_tools() {
    let error = err("sales", json!({}));
    assert_eq!(
        error["error"],
        "samples has no tool \"sales\"; its tools are: search_recipes, list_recipes, get_recipe, monthly_sales, \
         request_logs, parliament, people_directory, project_plan"
    );
}

#[test]
fn answers_are_the_same_on_every_call() {
    for tool in DATA_TOOLS {
        assert_eq!(run(tool, json!({})), run(tool, json!({})), "{tool}");
    }
}

#[test]
fn every_default_answer_fits_the_agents_result_limit_untruncated() {
    let limit = Settings::default().result_limit;
    for tool in DATA_TOOLS {
        let size = run(tool, json!({})).text_content().chars().count();
        println!("{tool}: {size} characters");
        assert!(size < limit, "{tool}: {size} characters");
    }
}

// --- Monthly sales -------------------------------------------------------------------------------

#[test]
fn sales_totals_equal_the_sum_of_every_breakdown() {
    let sales = ok("monthly_sales", json!({}));
    for field in ["revenue", "units", "margin"] {
        let total = int(&sales, &format!("/totals/{field}"));
        for breakdown in ["by_month", "by_region", "by_product_line", "by_year"] {
            assert_eq!(sum(array(&sales, &format!("/{breakdown}")), field), total, "{breakdown} {field}");
        }
    }
    assert_eq!(array(&sales, "/months").len(), 24);
    assert_eq!(array(&sales, "/by_month").len(), 24);
    assert!(int(&sales, "/totals/margin") < int(&sales, "/totals/revenue"));
}

#[test]
fn sales_series_are_chart_ready_and_add_up_to_the_monthly_figures() {
    for metric in ["revenue", "units", "margin"] {
        let sales = ok("monthly_sales", json!({ "metric": metric }));
        assert_eq!(sales["series_metric"], metric);
        let by_month = array(&sales, "/by_month");
        for series in ["series_by_region", "series_by_product_line"] {
            let all = array(&sales, &format!("/{series}"));
            for (month, entry) in by_month.iter().enumerate() {
                let across: i64 = all.iter().map(|line| line["values"][month].as_i64().unwrap()).sum();
                assert_eq!(across, entry[metric].as_i64().unwrap(), "{series} {metric} month {month}");
            }
        }
        let labels: Vec<&str> =
            array(&sales, "/series_by_region").iter().map(|s| s["label"].as_str().unwrap()).collect();
        assert_eq!(labels, ["North", "South", "East", "West"]);
    }
}

#[test]
fn sales_filters_narrow_regions_product_lines_and_months() {
    let all = ok("monthly_sales", json!({}));
    let east = ok(
        "monthly_sales",
        json!({ "region": "East", "product_line": "Services", "from": "2024-01", "to": "2024-06" }),
    );
    assert_eq!(
        east["filters"],
        json!({ "region": "East", "product_line": "Services", "from": "2024-01", "to": "2024-06" })
    );
    assert_eq!(array(&east, "/by_region").len(), 1);
    assert_eq!(array(&east, "/by_product_line").len(), 1);
    assert_eq!(
        array(&east, "/months"),
        &vec![
            json!("2024-01"),
            json!("2024-02"),
            json!("2024-03"),
            json!("2024-04"),
            json!("2024-05"),
            json!("2024-06")
        ]
    );
    assert!(int(&east, "/totals/revenue") * 20 < int(&all, "/totals/revenue"));
    let east_all_year = ok("monthly_sales", json!({ "region": "East" }));
    let east_row = &array(&all, "/by_region")[2];
    assert_eq!(east_row["region"], "East");
    assert_eq!(east_all_year["totals"]["revenue"], east_row["revenue"]);
}

#[test]
fn year_on_year_change_is_given_only_between_years_of_equal_length() {
    let full = ok("monthly_sales", json!({}));
    let years = array(&full, "/by_year");
    assert_eq!(years.len(), 2);
    assert!(years[0].get("revenue_change_pct").is_none());
    let change = years[1]["revenue_change_pct"].as_f64().unwrap();
    let (before, after) = (years[0]["revenue"].as_f64().unwrap(), years[1]["revenue"].as_f64().unwrap());
    assert!((change - (after - before) / before * 100.0).abs() < 0.05, "{change}");
    let partial = ok("monthly_sales", json!({ "from": "2023-07" }));
    assert!(array(&partial, "/by_year")[1].get("revenue_change_pct").is_none(), "6 months against 12 is no comparison");
}

// --- Request logs --------------------------------------------------------------------------------

#[test]
fn log_summaries_count_every_matching_request_once() {
    let logs = ok("request_logs", json!({}));
    let requests = int(&logs, "/summary/requests");
    assert_eq!(requests, 720);
    assert_eq!(int(&logs, "/matched"), requests);
    let by_level: i64 = logs["summary"]["by_level"].as_object().unwrap().values().map(|n| n.as_i64().unwrap()).sum();
    let by_status: i64 = logs["summary"]["by_status"].as_object().unwrap().values().map(|n| n.as_i64().unwrap()).sum();
    assert_eq!(by_level, requests);
    assert_eq!(by_status, requests);
    assert_eq!(sum(array(&logs, "/by_route"), "requests"), requests);
    assert_eq!(sum(array(&logs, "/per_5_min"), "requests"), requests);
    let server_errors: i64 = logs["summary"]["by_status"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(status, _)| status.starts_with('5'))
        .map(|(_, count)| count.as_i64().unwrap())
        .sum();
    assert_eq!(int(&logs, "/summary/errors"), server_errors);
    assert_eq!(sum(array(&logs, "/by_route"), "errors"), server_errors);
    let latency = &logs["summary"]["latency_ms"];
    let order: Vec<i64> = ["p50", "p95", "p99", "max"].iter().map(|key| latency[key].as_i64().unwrap()).collect();
    assert!(order.windows(2).all(|pair| pair[0] <= pair[1]), "{latency}");
}

#[test]
fn the_orders_database_incident_stands_out_in_the_five_minute_buckets() {
    let logs = ok("request_logs", json!({}));
    let buckets = array(&logs, "/per_5_min");
    assert_eq!(buckets.len(), 12);
    let worst = buckets.iter().max_by_key(|bucket| bucket["errors"].as_i64().unwrap()).unwrap();
    assert_eq!(worst["time"], "09:45");
    assert!(worst["p95_ms"].as_i64().unwrap() >= 3_000);
    assert!(buckets[..8].iter().all(|bucket| bucket["errors"] == 0));
}

#[test]
fn log_filters_keep_only_matching_entries_and_the_latest_ones_oldest_first() {
    let errors = ok("request_logs", json!({ "min_level": "error", "limit": 5 }));
    assert_eq!(int(&errors, "/returned"), 5);
    assert!(int(&errors, "/matched") > 5);
    let entries = array(&errors, "/entries");
    assert!(entries.iter().all(|entry| entry["level"] == "error" && entry["status"].as_i64().unwrap() >= 500));
    let times: Vec<&str> = entries.iter().map(|entry| entry["timestamp"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|pair| pair[0] < pair[1]), "{times:?}");
    let all_errors = ok("request_logs", json!({ "min_level": "error", "limit": 200 }));
    assert_eq!(array(&all_errors, "/entries").last(), entries.last(), "the latest come last");

    let warn = ok("request_logs", json!({ "min_level": "warn", "limit": 200 }));
    assert!(array(&warn, "/entries").iter().all(|entry| entry["level"] != "info"));
    assert_eq!(int(&warn, "/matched"), int(&warn, "/summary/requests"));

    let login = ok("request_logs", json!({ "route": "POST /api/login", "status": 401, "limit": 200 }));
    assert!(int(&login, "/matched") > 0);
    for entry in array(&login, "/entries") {
        assert_eq!((entry["route"].as_str(), entry["status"].as_i64()), (Some("POST /api/login"), Some(401)));
        assert!(entry["message"].as_str().unwrap().starts_with("invalid credentials"));
    }

    let window = ok("request_logs", json!({ "from": "09:42", "to": "09:44", "min_latency_ms": 1000, "limit": 200 }));
    assert_eq!(window["window"], json!({ "from": "2024-11-14T09:42:00.000Z", "to": "2024-11-14T09:44:59.999Z" }));
    for entry in array(&window, "/entries") {
        let time = entry["timestamp"].as_str().unwrap();
        assert!(("2024-11-14T09:42".."2024-11-14T09:45").contains(&time), "{time}");
        assert!(entry["latency_ms"].as_i64().unwrap() >= 1_000);
    }
    assert_eq!(array(&window, "/per_5_min").len(), 1);
}

// --- Parliament ----------------------------------------------------------------------------------

#[test]
fn seats_sum_to_the_chamber_and_the_coalition_holds_a_majority() {
    let chamber = ok("parliament", json!({}));
    let groups = array(&chamber, "/groups");
    let total = int(&chamber, "/total_seats");
    assert_eq!(sum(groups, "seats"), total);
    assert_eq!(int(&chamber, "/majority"), total / 2 + 1);
    let coalition: Vec<&Value> = groups.iter().filter(|group| group["side"] == "government").collect();
    let ids: Vec<&Value> = coalition.iter().map(|group| &group["id"]).collect();
    assert_eq!(chamber["coalition"]["groups"].as_array().unwrap().iter().collect::<Vec<_>>(), ids);
    let seats: i64 = coalition.iter().map(|group| group["seats"].as_i64().unwrap()).sum();
    assert_eq!(int(&chamber, "/coalition/seats"), seats);
    assert!(seats >= int(&chamber, "/majority"));
    assert_eq!(int(&chamber, "/coalition/margin_over_majority"), seats - int(&chamber, "/majority"));
    let sides = &chamber["seats_by_side"];
    let by_side: i64 = sides.as_object().unwrap().values().map(|n| n.as_i64().unwrap()).sum();
    assert_eq!(by_side, total);
    for group in groups {
        let color = group["color"].as_str().unwrap();
        assert!(color.len() == 7 && color.starts_with('#'), "{color}");
    }
}

#[test]
fn every_vote_accounts_for_every_seat_and_its_result_follows_the_count() {
    let chamber = ok("parliament", json!({}));
    let seats: Vec<(String, i64)> = array(&chamber, "/groups")
        .iter()
        .map(|group| (group["id"].as_str().unwrap().to_owned(), group["seats"].as_i64().unwrap()))
        .collect();
    let votes = array(&chamber, "/votes");
    assert_eq!(votes.len(), 4);
    let dates: Vec<&str> = votes.iter().map(|vote| vote["date"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|pair| pair[0] > pair[1]), "newest first: {dates:?}");
    for vote in votes {
        let by_group = array(vote, "/by_group");
        for (entry, (id, group_seats)) in by_group.iter().zip(&seats) {
            assert_eq!(entry["group"], id.as_str());
            let cast: i64 = ["for", "against", "abstain", "absent"].iter().map(|k| entry[k].as_i64().unwrap()).sum();
            assert_eq!(cast, *group_seats, "{} {id}", vote["id"]);
        }
        for choice in ["for", "against", "abstain", "absent"] {
            assert_eq!(sum(by_group, choice), int(vote, &format!("/{choice}")), "{} {choice}", vote["id"]);
        }
        let adopted = int(vote, "/for") > int(vote, "/against");
        assert_eq!(vote["result"], if adopted { "adopted" } else { "rejected" });
    }
}

#[test]
fn parliament_filters_select_a_side_and_votes_by_result_and_count() {
    let opposition = ok("parliament", json!({ "side": "opposition" }));
    let groups = array(&opposition, "/groups");
    assert!(!groups.is_empty() && groups.iter().all(|group| group["side"] == "opposition"));
    assert_eq!(sum(groups, "seats"), int(&opposition, "/seats_by_side/opposition"));
    assert_eq!(int(&opposition, "/total_seats"), 401, "the chamber's size does not change with the filter");
    let rejected = ok("parliament", json!({ "result": "rejected" }));
    let votes = array(&rejected, "/votes");
    assert!(!votes.is_empty() && votes.iter().all(|vote| vote["result"] == "rejected"));
    assert_eq!(array(&ok("parliament", json!({ "votes": 1 })), "/votes").len(), 1);
    assert!(array(&ok("parliament", json!({ "votes": 0 })), "/votes").is_empty());
}

// --- People --------------------------------------------------------------------------------------

#[test]
fn the_directory_has_unique_people_with_inline_avatars_or_none_and_never_a_web_url() {
    let directory = ok("people_directory", json!({}));
    let people = array(&directory, "/people");
    assert_eq!(people.len(), 20);
    assert_eq!(int(&directory, "/headcount"), 20);
    let emails: BTreeSet<&str> = people.iter().map(|person| person["email"].as_str().unwrap()).collect();
    assert_eq!(emails.len(), 20);
    let (with_photo, without): (Vec<&Value>, Vec<&Value>) =
        people.iter().partition(|person| person.get("photo").is_some());
    assert!(!with_photo.is_empty() && !without.is_empty());
    for person in with_photo {
        let photo = person["photo"].as_str().unwrap();
        assert!(photo.starts_with("data:image/svg+xml,"), "{photo}");
        assert!(image_url(photo).is_ok(), "the widgets' sanitiser keeps it");
        assert!(photo.len() < 400, "{} characters", photo.len());
    }
    for person in people {
        let text = person.to_string();
        assert!(!text.contains("https://"), "{text}");
        let date = person["start_date"].as_str().unwrap();
        assert!(date.len() == 10 && date < "2024-11-15", "{date}");
    }
    assert_eq!(sum(array(&directory, "/teams"), "count"), 20);
    assert_eq!(sum(array(&directory, "/locations"), "count"), 20);
}

#[test]
fn directory_filters_by_team_location_and_text_and_can_leave_photos_out() {
    let platform = ok("people_directory", json!({ "team": "Platform" }));
    let people = array(&platform, "/people");
    assert_eq!(people.len(), 5);
    assert!(people.iter().all(|person| person["team"] == "Platform" && person["team_color"] == "#2563eb"));
    assert_eq!(platform["teams"], json!([{ "team": "Platform", "color": "#2563eb", "count": 5 }]));

    let names = |args: Value| -> Vec<String> {
        array(&ok("people_directory", args), "/people").iter().map(|p| p["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(names(json!({ "location": "Lyon", "query": "ENGINEER" })), ["Amira Haddad", "Lucas Moreau"]);
    assert_eq!(names(json!({ "query": "backend" })), ["Lucas Moreau", "Jonas Becker"]);
    assert_eq!(
        names(json!({ "query": "@arvena.example", "team": "Operations" })),
        ["David Cohen", "Fatima El Idrissi"]
    );

    let plain = ok("people_directory", json!({ "photos": false, "limit": 3 }));
    assert_eq!(int(&plain, "/returned"), 3);
    assert_eq!(int(&plain, "/matched"), 20);
    assert!(array(&plain, "/people").iter().all(|person| person.get("photo").is_none()));
}

// --- Project plan --------------------------------------------------------------------------------

#[test]
fn milestone_statuses_follow_the_as_of_date_and_owners_are_people_of_the_directory() {
    let plan = ok("project_plan", json!({}));
    let as_of = plan["as_of"].as_str().unwrap();
    let milestones = array(&plan, "/milestones");
    let directory = ok("people_directory", json!({ "photos": false }));
    let people = array(&directory, "/people");
    let mut active = 0;
    for milestone in milestones {
        let date = milestone["date"].as_str().unwrap();
        match milestone["status"].as_str().unwrap() {
            "done" => assert!(date <= as_of, "{milestone}"),
            "pending" => assert!(date > as_of, "{milestone}"),
            "active" => active += 1,
            other => panic!("status {other}"),
        }
        let owner = people.iter().find(|person| person["name"] == milestone["owner"]);
        let owner = owner.unwrap_or_else(|| panic!("{} is not in the directory", milestone["owner"]));
        assert_eq!(owner["team"], milestone["team"]);
    }
    assert_eq!(active, 1);
    let dates: Vec<&str> = milestones.iter().map(|m| m["date"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|pair| pair[0] < pair[1]));
    let progress = &plan["progress"];
    assert_eq!(int(progress, "/milestones"), milestones.len() as i64);
    assert_eq!(int(progress, "/done") + int(progress, "/active") + int(progress, "/pending"), milestones.len() as i64);
}

#[test]
fn handovers_form_a_sankey_between_the_directorys_teams_without_cycles() {
    let plan = ok("project_plan", json!({}));
    let directory = ok("people_directory", json!({ "photos": false }));
    let nodes = array(&plan, "/handovers/nodes");
    let links = array(&plan, "/handovers/links");
    let ids: Vec<&str> = nodes.iter().map(|node| node["id"].as_str().unwrap()).collect();
    for node in nodes {
        let team = array(&directory, "/teams").iter().find(|team| team["team"] == node["id"]).expect("a real team");
        assert_eq!(node["people"], team["count"]);
        assert_eq!(node["color"], team["color"]);
        let received: i64 =
            links.iter().filter(|link| link["target"] == node["id"]).map(|l| l["value"].as_i64().unwrap()).sum();
        assert_eq!(int(node, "/tasks_received"), received);
    }
    for link in links {
        let (source, target) = (link["source"].as_str().unwrap(), link["target"].as_str().unwrap());
        let position = |id: &str| ids.iter().position(|known| *known == id).expect("links name nodes");
        assert!(position(source) < position(target), "{source} -> {target} goes backwards");
    }
    assert_eq!(sum(links, "value"), int(&plan, "/handovers/total"));
    let sankey = json!({ "nodes": nodes.iter().map(|n| json!({ "id": n["id"], "color": n["color"] })).collect::<Vec<_>>(), "links": links });
    let checked = registry().find("sankey").unwrap().check(sankey);
    assert!(checked.is_ok_and(|checked| checked.repairs.is_empty()));
}

#[test]
fn project_filters_keep_a_status_or_one_teams_milestones_and_handovers() {
    let pending = ok("project_plan", json!({ "status": "pending" }));
    assert!(array(&pending, "/milestones").iter().all(|m| m["status"] == "pending"));
    let data = ok("project_plan", json!({ "team": "Data" }));
    assert!(array(&data, "/milestones").iter().all(|m| m["team"] == "Data"));
    let links = array(&data, "/handovers/links");
    assert!(!links.is_empty() && links.iter().all(|l| l["source"] == "Data" || l["target"] == "Data"));
}

// --- Flow recipes --------------------------------------------------------------------------------

const FLOWS: [&str; 5] =
    ["sales-dashboard", "service-health", "parliament-overview", "team-directory", "project-status"];

#[test]
fn list_recipes_gives_every_flow_with_name_description_and_group() {
    let listed = ok("list_recipes", json!({}));
    let recipes = array(&listed, "/recipes");
    let names: Vec<&str> = recipes.iter().map(|recipe| recipe["name"].as_str().unwrap()).collect();
    assert_eq!(names, FLOWS);
    for recipe in recipes {
        assert_eq!(recipe.as_object().unwrap().keys().collect::<Vec<_>>(), ["description", "group", "name"]);
        assert_eq!(recipe["group"], "flow");
    }
}

#[test]
fn search_recipes_ranks_by_name_tags_and_description() {
    let first = |query: &str| ok("search_recipes", json!({ "query": query }))["recipes"][0]["name"].clone();
    assert_eq!(first("build me a sales dashboard"), "sales-dashboard");
    assert_eq!(first("errors and latency"), "service-health");
    assert_eq!(first("seats"), "parliament-overview");
    assert_eq!(first("employees"), "team-directory");
    assert_eq!(first("milestones"), "project-status");
    let none = ok("search_recipes", json!({ "query": "weather" }));
    assert_eq!(none["recipes"], json!([]));
    assert_eq!(none["hint"], "no samples recipe matches; call list_recipes to see all of them");
}

#[test]
fn get_recipe_gives_the_markdown_and_an_unknown_name_suggests_the_closest() {
    let recipe = ok("get_recipe", json!({ "name": "Sales Dashboard" }));
    assert_eq!(recipe["name"], "sales-dashboard");
    assert_eq!(recipe["group"], "flow");
    assert!(recipe["recipe"].as_str().unwrap().contains("samples_webmcp_monthly_sales"));
    let error = err("get_recipe", json!({ "name": "sales-board" }));
    assert_eq!(error["error"], "no samples recipe named \"sales-board\"");
    assert_eq!(error["closest"][0], "sales-dashboard");
    assert_eq!(error["hint"], "call list_recipes to see every samples recipe");
}

/// The ```json blocks of a markdown body.
fn json_blocks(body: &str) -> Vec<Value> {
    body.split("```json\n")
        .skip(1)
        .map(|rest| rest.split("\n```").next().unwrap_or_default())
        .map(|block| serde_json::from_str(block).unwrap_or_else(|error| panic!("{error}: {block}")))
        .collect()
}

/// Every `server_protocol_tool` name in `text`.
fn tool_names(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.contains("_webmcp_") || word.contains("_mcp_"))
        .map(str::to_owned)
        .collect()
}

fn catalog_with_samples() -> (Catalog, Rc<RecordingCanvas>) {
    let canvas = Rc::new(RecordingCanvas::default());
    let ui = AutoUi::new(canvas.clone(), Rc::new(ResultBuffer::new()), Rc::new(Counter::default()));
    let local: Vec<Rc<dyn LocalServer>> = vec![Rc::new(ui), Rc::new(Samples::default())];
    (Catalog::build(&local, &[]), canvas)
}

#[test]
fn every_recipe_names_only_real_tools_and_widgets_and_its_examples_validate() {
    let (catalog, _) = catalog_with_samples();
    for flow in FLOWS {
        let body = ok("get_recipe", json!({ "name": flow }))["recipe"].as_str().unwrap().to_owned();
        for name in tool_names(&body) {
            assert!(catalog.lookup(&name).is_some(), "{flow} names {name}, which the model cannot call");
        }
        let quoted: BTreeSet<&str> = body.split('`').skip(1).step_by(2).collect();
        let (mut calls, mut widgets) = (0, BTreeSet::<String>::new());
        for block in json_blocks(&body) {
            if let Some(tool) = block["tool"].as_str() {
                calls += 1;
                let real = tool.strip_prefix("samples_webmcp_").unwrap_or_else(|| panic!("{flow}: {tool}"));
                let result = run(real, block["arguments"].clone());
                assert!(!result.is_error, "{flow}: {tool} {}: {}", block["arguments"], result.text_content());
            } else {
                let name = block["name"].as_str().unwrap_or_else(|| panic!("{flow}: {block}"));
                let recipe = registry().find(name).unwrap_or_else(|| panic!("{flow}: no widget {name}"));
                assert_eq!(recipe.name(), name, "{flow} uses a legacy name");
                let errors: Vec<String> =
                    recipe.validator().unwrap().iter_errors(&block["params"]).map(|e| e.to_string()).collect();
                assert!(errors.is_empty(), "{flow} {name}: {errors:?}");
                let checked = recipe.check(block["params"].clone()).unwrap();
                assert!(checked.repairs.is_empty() && checked.dropped.is_empty(), "{flow} {name}");
                assert!(quoted.contains(name), "{flow} shows {name} without naming it");
                widgets.insert(name.to_owned());
            }
        }
        assert!(calls >= 1 && widgets.len() >= 3, "{flow}: {calls} calls, widgets {widgets:?}");
        let show = body.split("## 2.").nth(1).expect("a show section");
        for bullet in show.lines().filter(|line| line.starts_with("- ")) {
            assert!(
                bullet.split('`').skip(1).step_by(2).any(|word| WidgetKind::from_name(word).is_some()),
                "{flow}: no widget named in {bullet:?}"
            );
        }
    }
}

// --- What the model sees -------------------------------------------------------------------------

fn tools_json(defs: &[ToolDef]) -> String {
    let tools: Vec<Value> = defs
        .iter()
        .map(|def| json!({ "name": def.name, "description": def.description, "input_schema": *def.input_schema }))
        .collect();
    Value::Array(tools).to_string()
}

#[test]
fn the_model_sees_the_samples_recipe_tools_from_the_start_and_its_data_tools_once_activated() {
    let (catalog, _) = catalog_with_samples();
    let server = catalog.server(&ServerId::sanitize("samples"), Protocol::WebMcp).expect("samples in the catalog");
    assert_eq!(
        server.recipe_tool(RecipeRole::List).map(|tool| tool.exposed.as_str()),
        Some("samples_webmcp_list_recipes")
    );
    assert_eq!(server.recipe_tool(RecipeRole::Search).map(|tool| tool.real.as_str()), Some("search_recipes"));

    let first: Vec<String> = catalog.tool_defs(&[]).into_iter().map(|def| def.name).collect();
    for name in ["samples_webmcp_search_recipes", "samples_webmcp_list_recipes", "samples_webmcp_get_recipe"] {
        assert!(first.contains(&name.to_owned()), "{name} missing from {first:?}");
    }
    assert!(!first.iter().any(|name| name == "samples_webmcp_monthly_sales"));
    let activated = catalog.tool_defs(&[(ServerId::sanitize("samples"), Protocol::WebMcp)]);
    let names: Vec<&str> = activated.iter().map(|def| def.name.as_str()).collect();
    for tool in DATA_TOOLS {
        assert!(names.contains(&format!("samples_webmcp_{tool}").as_str()), "{tool}");
    }

    let autoui_only = {
        let ui =
            AutoUi::new(Rc::new(RecordingCanvas::default()), Rc::new(ResultBuffer::new()), Rc::new(Counter::default()));
        Catalog::build(&[Rc::new(ui) as Rc<dyn LocalServer>], &[])
    };
    let without = tools_json(&autoui_only.tool_defs(&[])).len();
    let with = tools_json(&catalog.tool_defs(&[])).len();
    let after = tools_json(&activated).len();
    println!(
        "discovery tool JSON: {without} bytes with autoui alone, {with} with samples, {after} once samples is active"
    );
    assert!(with - without <= DISCOVERY_BUDGET_BYTES, "samples adds {} bytes to every request", with - without);

    let prompt = build_system_prompt(&catalog, "");
    println!("system prompt with autoui and samples: {} characters", prompt.chars().count());
    assert!(prompt.contains(
        "- samples (webmcp, 8 tools): Built-in demo data: sales, web service logs, parliament, people, project plan; \
         recipes samples_webmcp_search_recipes, samples_webmcp_list_recipes, samples_webmcp_get_recipe\n"
    ));
    assert!(prompt.chars().count() <= 2_400);
}

// --- A whole session -----------------------------------------------------------------------------

fn format_millions(amount: i64) -> String {
    format!("{:.1}M", amount as f64 / 1_000_000.0)
}

/// The model's script: list the samples recipes, read one, call its tool, then show widgets computed
/// from the result it received, as a real model would.
fn script() -> Vec<Step> {
    vec![
        Step::Reply(vec![text("Let me see what data there is."), call("t1", "samples_webmcp_list_recipes", json!({}))]),
        Step::Reply(vec![call("t2", "samples_webmcp_get_recipe", json!({ "name": "sales-dashboard" }))]),
        Step::Reply(vec![call("t3", "samples_webmcp_monthly_sales", json!({}))]),
        Step::Compute(Box::new(|request| {
            let sales = request.json_result_of("t3").expect("the sales result reached the model whole");
            let change = sales["by_year"][1]["revenue_change_pct"].clone();
            let revenue = json!({
                "label": "Revenue 2023-2024",
                "value": format_millions(sales["totals"]["revenue"].as_i64().unwrap_or_default()),
                "unit": "€",
                "delta": format!("+{change}% in 2024"),
                "trend": "up",
                "icon": "💶",
            });
            let by_region = json!({
                "title": "Monthly revenue by region (€)",
                "type": "line",
                "labels": sales["months"],
                "data": sales["series_by_region"],
            });
            let lines = sales["by_product_line"].as_array().cloned().unwrap_or_default();
            let mix = json!({
                "title": "Revenue by product line",
                "type": "donut",
                "labels": lines.iter().map(|line| line["product_line"].clone()).collect::<Vec<_>>(),
                "data": [{ "label": "Revenue", "values": lines.iter().map(|line| line["revenue"].clone()).collect::<Vec<_>>() }],
            });
            let table = json!({ "title": "Sales by region", "rows": sales["by_region"] });
            let show = |id: &str, name: &str, params: Value| {
                call(id, "autoui_webmcp_widget_display", json!({ "name": name, "params": params }))
            };
            vec![
                show("t4", "stat-card", revenue),
                show("t5", "chart-rich", by_region),
                show("t6", "chart-rich", mix),
                show("t7", "data-table", table),
            ]
        })),
        Step::Reply(vec![text(
            "Your sales dashboard is ready: revenue, the monthly trend by region, the product mix.",
        )]),
    ]
}

#[test]
fn a_scripted_session_builds_a_sales_dashboard_from_sample_data_on_the_real_autoui() {
    let canvas = Rc::new(RecordingCanvas::default());
    let results = Rc::new(ResultBuffer::new());
    let ui = AutoUi::new(canvas.clone(), results.clone(), Rc::new(Counter::default()));
    let model = Rc::new(ScriptedModel::new(script()));
    let deps = AgentDeps {
        model: model.clone(),
        local: vec![Rc::new(ui), Rc::new(Samples::default())],
        remote: Rc::new(FakeMcp::new()),
        clock: Rc::new(FakeClock::new()),
        results,
    };
    let mut session = AgentSession::new(deps, AgentConfig::default());
    let settings = Settings { api_key: "test-key".to_owned(), ..Settings::default() };
    let events: RefCell<Vec<AgentEvent>> = RefCell::new(Vec::new());
    let summary =
        block_on(session.run(UserTurn::text("Build me a sales dashboard"), &settings, CancelToken::new(), &events));

    assert_eq!(summary.reason, StopReason::Completed);
    assert_eq!(summary.iterations, 5);
    assert!(
        summary
            .calls
            .iter()
            .all(|record| !matches!(record.outcome, autoui_core::dispatch::record::CallOutcome::Failed { .. }))
    );

    let seen = model.seen();
    assert!(seen[0].system.contains("- samples (webmcp, 8 tools): Built-in demo data"));
    assert!(seen[0].tools.contains(&"samples_webmcp_list_recipes".to_owned()));
    assert!(!seen[0].tools.contains(&"samples_webmcp_monthly_sales".to_owned()), "data tools wait for activation");
    assert!(seen[1].tools.contains(&"samples_webmcp_monthly_sales".to_owned()));
    assert!(seen[2].result_of("t2").unwrap().contains("samples_webmcp_monthly_sales"));

    let sales = ok("monthly_sales", json!({}));
    let widgets = canvas.widgets();
    let kinds: Vec<WidgetKind> = widgets.iter().map(|(kind, _)| *kind).collect();
    assert_eq!(kinds, [WidgetKind::StatCard, WidgetKind::ChartRich, WidgetKind::ChartRich, WidgetKind::DataTable]);
    assert_eq!(
        widgets[0].1,
        json!({ "label": "Revenue 2023-2024", "value": "29.6M", "unit": "€", "delta": "+11.4% in 2024", "trend": "up" }),
        "the undocumented icon was dropped, not refused"
    );
    assert_eq!(widgets[1].1["labels"], sales["months"]);
    assert_eq!(widgets[1].1["data"], sales["series_by_region"]);
    assert_eq!(widgets[2].1["labels"], json!(["Hardware", "Software", "Services"]));
    assert_eq!(widgets[3].1["rows"], sales["by_region"]);
    assert!(seen[4].result_of("t4").unwrap().contains("dropped unknown field `icon` (stat-card has no such field)"));

    let source = Some(DataSource { server: ServerId::sanitize("samples"), tool: "monthly_sales".to_owned() });
    for (block, call_id) in canvas.blocks().iter().zip(["t4", "t5", "t6", "t7"]) {
        assert_eq!(block.provenance, Origin::Agent { call_id: CallId::new(call_id), source: source.clone() });
    }
}
