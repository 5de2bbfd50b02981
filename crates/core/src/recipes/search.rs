//! Recipe search: ranking by name, tags and description, and "did you mean" suggestions.

use crate::recipes::Recipe;
use crate::sort::{sort_by, sort_by_key};
use crate::widget_kind::WidgetKind;

/// Score weights: a name match beats a tag match, which beats a description match.
const EXACT_NAME: u32 = 200;
const NAME_WORD: u32 = 100;
const IN_NAME: u32 = 60;
const TAG: u32 = 40;
const IN_TAG: u32 = 20;
const IN_DESCRIPTION: u32 = 10;

/// Recipes matching any word of `query`, best first (ties keep gallery order); an empty query lists all.
pub fn rank<'a>(recipes: &'a [Recipe], query: &str) -> Vec<&'a Recipe> {
    let words = terms(query);
    if words.is_empty() {
        return recipes.iter().collect();
    }
    let mut scored: Vec<(u32, &Recipe)> = recipes
        .iter()
        .map(|recipe| (score(recipe, query, &words), recipe))
        .filter(|(score, _)| *score > 0)
        .collect();
    sort_by_key(&mut scored, |(score, _)| std::cmp::Reverse(*score));
    scored.into_iter().map(|(_, recipe)| recipe).collect()
}

/// The `limit` names nearest to `name`: word matches first, then spelling similarity.
pub fn closest(recipes: &[Recipe], name: &str, limit: usize) -> Vec<&'static str> {
    let words = terms(name);
    let wanted = name.trim().to_lowercase().replace('_', "-");
    let wanted = wanted.strip_prefix("render-").unwrap_or(&wanted);
    let mut scored: Vec<(u32, f64, &'static str)> = recipes
        .iter()
        .map(|recipe| {
            (
                score(recipe, name, &words),
                strsim::jaro_winkler(wanted, recipe.name()),
                recipe.name(),
            )
        })
        .collect();
    sort_by(&mut scored, |a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
    scored
        .into_iter()
        .take(limit)
        .map(|(_, _, name)| name)
        .collect()
}

fn score(recipe: &Recipe, query: &str, words: &[String]) -> u32 {
    let exact = if WidgetKind::from_name(query) == Some(recipe.kind) {
        EXACT_NAME
    } else {
        0
    };
    exact
        + words
            .iter()
            .map(|word| word_score(recipe, word))
            .sum::<u32>()
}

/// The best score of `word` (or its singular) against one recipe.
fn word_score(recipe: &Recipe, word: &str) -> u32 {
    forms(word).map(|form| form_score(recipe, form)).max().unwrap_or(0)
}

/// `word`, then its singular when it has one: `tables` also finds `table`.
pub(crate) fn forms(word: &str) -> impl Iterator<Item = &str> {
    [Some(word), singular(word)].into_iter().flatten()
}

fn form_score(recipe: &Recipe, form: &str) -> u32 {
    let name = recipe.name();
    if name.split('-').any(|part| part == form) {
        NAME_WORD
    } else if name.contains(form) {
        IN_NAME
    } else if recipe.tags.iter().any(|tag| tag.eq_ignore_ascii_case(form)) {
        TAG
    } else if recipe
        .tags
        .iter()
        .any(|tag| tag.to_lowercase().contains(form))
    {
        IN_TAG
    } else if recipe.description.to_lowercase().contains(form) {
        IN_DESCRIPTION
    } else {
        0
    }
}

/// Lower-case words of at least two characters (also used by other servers' recipe searches).
pub(crate) fn terms(query: &str) -> Vec<String> {
    query
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().count() >= 2)
        .map(str::to_owned)
        .collect()
}

/// `tables` -> `table`, so plural queries find singular names and tags.
fn singular(word: &str) -> Option<&str> {
    word.strip_suffix('s')
        .filter(|stem| stem.chars().count() >= 3)
}
