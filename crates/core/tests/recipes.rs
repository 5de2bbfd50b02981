//! Recipe self-check: every `recipes/*.md` parses, names one of the 27 widget kinds, has a schema
//! that compiles (draft 2020-12), says when and how to use the widget, and every example call in
//! its body validates against its own schema untouched by repair or sanitising.
//! Also the discovery helpers built on the recipes: search ranking and "did you mean" names.

use std::path::Path;

use autoui_core::canvas::model::retitled;
use autoui_core::recipes::showcase::showcase;
use autoui_core::recipes::{RecipeGroup, Registry, registry};
use autoui_core::widget_kind::WidgetKind;

#[test]
fn every_recipe_file_loads_without_error() {
    let (_, errors) = Registry::from_embedded();
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(messages.is_empty(), "{messages:#?}");
}

#[test]
fn there_is_exactly_one_recipe_per_widget_kind_in_gallery_order() {
    let kinds: Vec<WidgetKind> = registry().all().iter().map(|recipe| recipe.kind).collect();
    assert_eq!(kinds, WidgetKind::ALL);
    for kind in WidgetKind::ALL {
        assert_eq!(registry().get(*kind).map(|recipe| recipe.kind), Some(*kind));
    }
}

#[test]
fn the_gallery_shows_every_recipe_with_its_description_and_examples() {
    let shown: Vec<(WidgetKind, String, Vec<serde_json::Value>)> =
        showcase().into_iter().map(|entry| (entry.kind, entry.description, entry.examples)).collect();
    let registered: Vec<(WidgetKind, String, Vec<serde_json::Value>)> = registry()
        .all()
        .iter()
        .map(|recipe| (recipe.kind, recipe.description.clone(), recipe.examples.clone()))
        .collect();
    assert_eq!(shown, registered);
}

#[test]
fn every_schema_compiles_as_draft_2020_12() {
    for recipe in registry().all() {
        if let Err(error) = recipe.validator() {
            panic!("{error}");
        }
    }
}

#[test]
fn every_example_validates_against_its_own_schema() {
    for recipe in registry().all() {
        let validator = recipe.validator().unwrap();
        for (index, example) in recipe.examples.iter().enumerate() {
            let errors: Vec<String> = validator
                .iter_errors(example)
                .map(|error| error.to_string())
                .collect();
            assert!(
                errors.is_empty(),
                "{} example #{}: {errors:?}",
                recipe.name(),
                index + 1
            );
        }
    }
}

#[test]
fn every_kind_with_a_name_in_its_schema_can_be_renamed_by_hand_into_valid_params() {
    for recipe in registry().all() {
        let properties = &recipe.schema["properties"];
        let named = ["title", "label", "name"].into_iter().find(|key| properties.get(*key).is_some());
        assert_eq!(recipe.kind.title_key(), named, "{}: the name the frame shows is the schema's", recipe.name());
        let validator = recipe.validator().unwrap();
        for example in &recipe.examples {
            let Some(renamed) = retitled(recipe.kind, example, "  Q3\n revenue ") else {
                assert_eq!(named, None, "{}: renaming changed nothing", recipe.name());
                continue;
            };
            let errors: Vec<String> = validator.iter_errors(&renamed).map(|error| error.to_string()).collect();
            assert!(errors.is_empty(), "{} renamed: {errors:?}", recipe.name());
            assert_eq!(renamed[named.unwrap()], "Q3 revenue", "{}: one line, trimmed", recipe.name());
            let others = |data: &serde_json::Value| {
                let mut data = data.clone();
                data.as_object_mut().unwrap().remove(named.unwrap());
                data
            };
            assert_eq!(others(&renamed), others(example), "{}: nothing else changes", recipe.name());
            assert_eq!(retitled(recipe.kind, &renamed, "Q3 revenue"), None, "{}: unchanged is no change", recipe.name());
        }
        assert_eq!(retitled(recipe.kind, &recipe.examples[0], " \t "), None, "{}: a blank name is no rename", recipe.name());
    }
}

#[test]
fn every_example_passes_the_display_pipeline_without_repair_or_dropped_urls() {
    for recipe in registry().all() {
        for (index, example) in recipe.examples.iter().enumerate() {
            let checked = recipe.check(example.clone()).unwrap_or_else(|rejected| {
                panic!(
                    "{} example #{} rejected: {:?}",
                    recipe.name(),
                    index + 1,
                    rejected.details
                )
            });
            assert!(
                checked.repairs.is_empty(),
                "{} example #{} needed {:?}",
                recipe.name(),
                index + 1,
                checked.repairs
            );
            assert!(
                checked.dropped.is_empty(),
                "{} example #{} lost {:?}",
                recipe.name(),
                index + 1,
                checked.dropped
            );
            assert_eq!(&checked.data, example);
        }
    }
}

#[test]
fn every_recipe_says_when_and_how_to_use_it_and_shows_an_example() {
    for recipe in registry().all() {
        for heading in ["## When to use", "## How to use"] {
            assert!(
                recipe.body.contains(heading),
                "{} lacks {heading}",
                recipe.name()
            );
        }
        assert!(
            !recipe.examples.is_empty(),
            "{} has no example",
            recipe.name()
        );
        assert!(
            !recipe.body.starts_with("---"),
            "{} body still holds its frontmatter",
            recipe.name()
        );
    }
}

#[test]
fn every_recipe_has_a_rendering_component_in_the_app() {
    let widgets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/widgets");
    for recipe in registry().all() {
        let module = recipe.name().replace('-', "_");
        let file = widgets.join(format!("{module}.rs"));
        let folder = widgets.join(&module).join("mod.rs");
        assert!(
            file.is_file() || folder.is_file(),
            "{} has no component file {} (or {})",
            recipe.name(),
            file.display(),
            folder.display()
        );
    }
}

#[test]
fn descriptions_are_one_short_line_and_tags_help_search() {
    for recipe in registry().all() {
        let description = &recipe.description;
        assert!(
            !description.is_empty() && description.len() <= 120 && !description.contains('\n'),
            "{}",
            recipe.name()
        );
        assert!(
            recipe.tags.len() >= 3,
            "{} needs search tags",
            recipe.name()
        );
    }
}

#[test]
fn widget_params_are_closed_so_fields_the_renderer_would_ignore_are_known() {
    for recipe in registry().all() {
        assert_eq!(
            recipe.schema["additionalProperties"],
            false,
            "{}",
            recipe.name()
        );
    }
}

#[test]
fn every_example_with_an_undocumented_field_still_renders_with_the_field_dropped_and_reported() {
    for recipe in registry().all() {
        for example in &recipe.examples {
            let mut params = example.clone();
            params["icon"] = serde_json::json!("💡");
            let checked = recipe
                .check(params)
                .unwrap_or_else(|rejected| panic!("{}: {:?}", recipe.name(), rejected.details));
            assert_eq!(&checked.data, example, "{}", recipe.name());
            let repairs = autoui_core::recipes::repair::summarise(&checked.repairs);
            assert_eq!(
                repairs,
                [format!(
                    "/icon: dropped unknown field `icon` ({} has no such field)",
                    recipe.name()
                )]
            );
        }
    }
}

#[test]
fn groups_follow_the_gallery_sections() {
    let group = |kind| registry().get(kind).unwrap().group;
    assert_eq!(group(WidgetKind::Stat), RecipeGroup::Simple);
    assert_eq!(group(WidgetKind::DataTable), RecipeGroup::Rich);
    assert_eq!(group(WidgetKind::Gallery), RecipeGroup::Media);
    assert_eq!(group(WidgetKind::ChatInput), RecipeGroup::Interactive);
}

fn search(query: &str) -> Vec<&'static str> {
    registry()
        .search(query)
        .into_iter()
        .map(|recipe| recipe.name())
        .collect()
}

#[test]
fn search_ranks_name_matches_before_tag_and_description_matches() {
    assert_eq!(&search("table")[..2], ["data-table", "grid-data"]);
    assert_eq!(search("stat-card")[0], "stat-card");
    assert_eq!(search("render_stat_card")[0], "stat-card");
    assert_eq!(search("chart")[..2], ["chart", "chart-rich"]);
}

#[test]
fn search_finds_widgets_by_what_they_show() {
    assert!(search("kpi")[..2].contains(&"stat-card"));
    assert!(search("photos").contains(&"gallery"));
    assert_eq!(search("parliament seats")[0], "hemicycle");
    assert!(search("people").contains(&"trombinoscope"));
    assert!(search("pie").contains(&"chart-rich"));
}

#[test]
fn an_empty_search_lists_everything_and_nonsense_finds_nothing() {
    assert_eq!(search("").len(), 27);
    assert!(search("qwxzv").is_empty());
}

#[test]
fn unknown_names_suggest_the_closest_widgets() {
    assert_eq!(registry().closest("datatable", 3)[0], "data-table");
    let pie = registry().closest("pie-chart", 3);
    assert!(
        pie.contains(&"chart-rich") && pie.contains(&"chart"),
        "{pie:?}"
    );
    assert_eq!(registry().closest("statcard", 1), ["stat-card"]);
}

#[test]
fn legacy_render_names_find_their_recipe() {
    assert_eq!(
        registry()
            .find("render_stat_card")
            .map(|recipe| recipe.kind),
        Some(WidgetKind::StatCard)
    );
    assert_eq!(
        registry()
            .find("render_chart_rich")
            .map(|recipe| recipe.kind),
        Some(WidgetKind::ChartRich)
    );
    assert!(registry().find("pie-chart").is_none());
}
