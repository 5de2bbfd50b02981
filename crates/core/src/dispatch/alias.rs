//! Names the model sees: provider-safe aliases for canonical tool names, and the canonical
//! `search_recipes` / `list_recipes` / `get_recipe` names for a server's own recipe tools.

use std::collections::HashSet;

/// Providers accept tool names matching `^[a-zA-Z0-9_-]{1,64}$`.
pub const MAX_TOOL_NAME: usize = 64;

/// The three discovery roles a server's recipe tools can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecipeRole {
    Search,
    List,
    Get,
}

impl RecipeRole {
    pub const ALL: [RecipeRole; 3] = [RecipeRole::Search, RecipeRole::List, RecipeRole::Get];

    /// The canonical tool name the model sees for this role.
    pub fn canonical(self) -> &'static str {
        match self {
            RecipeRole::Search => "search_recipes",
            RecipeRole::List => "list_recipes",
            RecipeRole::Get => "get_recipe",
        }
    }
}

const SEARCH_VERBS: &[&str] = &["search", "find", "query"];
const LIST_VERBS: &[&str] = &["list", "browse", "explore", "discover"];
const GET_VERBS: &[&str] = &["get", "read", "fetch", "show", "describe", "detail", "view", "load"];
const RECIPE_NOUNS: &[&str] = &[
    "recipe",
    "recipes",
    "skill",
    "skills",
    "template",
    "templates",
    "prompt",
    "prompts",
    "workflow",
    "workflows",
    "playbook",
    "playbooks",
    "pattern",
    "patterns",
    "example",
    "examples",
];
/// Only unambiguous words: "template" or "workflow" in a data tool's description must not make it a recipe tool.
const RECIPE_WORDS_IN_DESCRIPTIONS: &[&str] = &["recipe", "skill", "playbook"];

/// Which of `tools` (real names with descriptions) play each recipe role, at most one per role.
/// Exact canonical names win; then a verb and a recipe noun in the name (`browse_skills`, `getRecipe`);
/// then a recipe word in the description, with the role taken from the name's first word.
pub fn recipe_roles<'a>(tools: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> Vec<(RecipeRole, &'a str)> {
    let mut found: Vec<(RecipeRole, &'a str)> = Vec::new();
    let claim = |role: RecipeRole, name: &'a str, found: &mut Vec<(RecipeRole, &'a str)>| {
        if !found.iter().any(|(taken, used)| *taken == role || *used == name) {
            found.push((role, name));
        }
    };
    for (name, _) in tools.clone() {
        if let Some(role) = RecipeRole::ALL.into_iter().find(|role| role.canonical() == name) {
            claim(role, name, &mut found);
        }
    }
    for (name, _) in tools.clone() {
        let words = words(name);
        let has_noun = words.iter().any(|word| RECIPE_NOUNS.contains(&word.as_str()));
        if let Some(role) = words.iter().find_map(|word| verb_role(word)).filter(|_| has_noun) {
            claim(role, name, &mut found);
        }
    }
    for (name, description) in tools {
        let description = description.to_ascii_lowercase();
        let mentions_recipes = RECIPE_WORDS_IN_DESCRIPTIONS.iter().any(|word| description.contains(word));
        if let Some(role) = words(name).first().and_then(|word| verb_role(word)).filter(|_| mentions_recipes) {
            claim(role, name, &mut found);
        }
    }
    found
}

fn verb_role(word: &str) -> Option<RecipeRole> {
    if SEARCH_VERBS.contains(&word) {
        Some(RecipeRole::Search)
    } else if LIST_VERBS.contains(&word) {
        Some(RecipeRole::List)
    } else if GET_VERBS.contains(&word) {
        Some(RecipeRole::Get)
    } else {
        None
    }
}

/// Lower-case words of a tool name: split on `_`, `-`, `.`, `/`, spaces and camelCase humps.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Hands out provider-safe names, each used once. A canonical name that is already valid is kept;
/// one with other characters has them replaced by `_`; one that is too long, or would collide, gets a
/// stable 8-hex-digit hash of the canonical name so the same tool always has the same alias.
#[derive(Debug, Default)]
pub struct NameAllocator {
    taken: HashSet<String>,
}

impl NameAllocator {
    pub fn allocate(&mut self, canonical: &str) -> String {
        let cleaned: String = canonical
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
            .collect();
        let cleaned = if cleaned.is_empty() { "tool".to_owned() } else { cleaned };
        let name = if cleaned.len() <= MAX_TOOL_NAME && !self.taken.contains(&cleaned) {
            cleaned
        } else {
            let keep = MAX_TOOL_NAME - 9;
            let head = &cleaned[..cleaned.len().min(keep)];
            let mut seed = 0u32;
            loop {
                let candidate = format!("{head}_{:08x}", fnv1a(canonical, seed));
                if !self.taken.contains(&candidate) {
                    break candidate;
                }
                seed += 1;
            }
        };
        self.taken.insert(name.clone());
        name
    }
}

/// 32-bit FNV-1a: tiny, stable across builds and platforms (unlike `std`'s randomised hasher).
fn fnv1a(text: &str, seed: u32) -> u32 {
    let mut hash: u32 = 0x811c_9dc5 ^ seed;
    for byte in text.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// Whether providers accept `name` as a tool name.
pub fn is_provider_safe(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_TOOL_NAME
        && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_on_separators_and_camel_case() {
        assert_eq!(words("getRecipe"), ["get", "recipe"]);
        assert_eq!(words("browse-skills.v2"), ["browse", "skills", "v2"]);
        assert_eq!(words("HTTPServer_list"), ["httpserver", "list"]);
    }

    #[test]
    fn fnv_is_stable() {
        assert_eq!(fnv1a("", 0), 0x811c_9dc5);
        assert_eq!(fnv1a("a", 0), 0xe40c_292c);
    }
}
