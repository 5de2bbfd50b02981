//! The request budget: when the next request would be larger than its budget, the conversation is
//! compressed further, least useful first, until it fits: large call inputs (the widgets hold that
//! data), then the results of earlier iterations oldest first (the second most recent included), then
//! their previews, down to the recall marker, then the newest data results cut harder from their
//! stored full text. Recipes, tool lists, errors and recall answers in the newest turn reach the
//! model whole: they are what it must read to go on. When all that is not enough (a small context
//! window, a long run), the request leaves out whole old steps (`condense.rs`). Everything cut stays
//! in the result buffer, and its marker names the `recall` that returns it.

use std::cmp::Reverse;

use crate::agent::condense;
use crate::agent::context::{Economy, Showable, result_turns, wire_len};
use crate::agent::frame::is_frame_line;
use crate::sort::sort_by_key;
use crate::tool::joined_text;
use crate::dispatch::catalog::ToolRole;
use crate::llm::message::{ContentBlock, Message};
use crate::tool::ResultPart;

/// Bytes of request body the agent aims to stay within (issue 9's budget for a long session).
pub const DEFAULT_REQUEST_BUDGET: usize = 25_000;
/// The budget never cuts a result below this many characters.
pub const MIN_SHOWN_CHARS: usize = 1_000;

/// The budget of one run: the configured one, raised to twice the user's result limit so that a
/// user who asks for longer results gets them.
pub fn effective_budget(configured: usize, result_limit: usize) -> usize {
    configured.max(result_limit.saturating_mul(2))
}

/// The budget's last stage, for a request that `Economy::fit` could not bring within `budget` (as
/// `measure` weighs it): the request's messages with the oldest steps left out, as few as make it fit
/// (all that may go when none do); `None` when it already fits.
pub(crate) fn leave_out_oldest(
    messages: &[Message],
    budget: usize,
    measure: impl Fn(&[Message]) -> usize,
) -> Option<Vec<Message>> {
    if measure(messages) <= budget {
        return None;
    }
    let steps = condense::droppable(messages);
    let mut condensed = None;
    for taken in 1..=steps.len() {
        let candidate = condense::without(messages, &steps[..taken]);
        let fits = measure(&candidate) <= budget;
        condensed = Some(candidate);
        if fits {
            break;
        }
    }
    condensed
}

impl Economy<'_> {
    /// Compresses until `excess` request bytes are saved or nothing more may go. Returns the bytes
    /// saved (measured on the neutral messages; provider bodies save at least as much).
    pub fn fit(&self, messages: &mut [Message], excess: usize) -> usize {
        let turns = result_turns(messages);
        let Some((&newest, earlier)) = turns.split_last() else { return 0 };
        let mut saved = 0;
        for &turn in &turns {
            saved += self.compress_inputs(messages, turn, excess.saturating_sub(saved));
        }
        for &turn in earlier {
            saved += self.compress_results(messages, turn, excess.saturating_sub(saved));
        }
        for &turn in earlier {
            if saved >= excess {
                break;
            }
            saved += self.strip_previews(messages, turn);
        }
        saved + self.cut_newest(messages, newest, excess.saturating_sub(saved))
    }

    /// Cuts the newest turn's data results again, largest first, until `need` bytes are saved.
    fn cut_newest(&self, messages: &mut [Message], turn: usize, need: usize) -> usize {
        if need == 0 {
            return 0;
        }
        let mut candidates: Vec<(usize, usize)> = messages[turn]
            .content
            .iter()
            .enumerate()
            .filter_map(|(index, block)| match block {
                ContentBlock::ToolResult { tool_use_id, is_error: false, .. }
                    if self.role_of_call(messages, turn, tool_use_id) == Some(ToolRole::Data) =>
                {
                    Some((index, wire_len(block)))
                }
                _ => None,
            })
            .collect();
        sort_by_key(&mut candidates, |&(_, size)| Reverse(size));
        let mut saved = 0;
        for (index, _) in candidates {
            if saved >= need {
                break;
            }
            saved += self.cut_harder(&mut messages[turn].content[index], need - saved);
        }
        saved
    }

    /// Shows a result again from its stored full text, with the largest limit (at least
    /// [`MIN_SHOWN_CHARS`]) that saves `need` bytes. Returns the bytes saved.
    fn cut_harder(&self, block: &mut ContentBlock, need: usize) -> usize {
        let before = wire_len(block);
        let ContentBlock::ToolResult { tool_use_id, content, .. } = block else { return 0 };
        let Some(full) = self.buffer.get(tool_use_id) else { return 0 };
        let current = joined_text(content).chars().count();
        if current <= MIN_SHOWN_CHARS || need == 0 {
            return 0;
        }
        let showable = Showable::new(&full);
        // The line naming a remote server's data stays in front, as when the result was first cut.
        let frame: Vec<ResultPart> =
            content.iter().filter(|part| matches!(part, ResultPart::Text { text } if is_frame_line(text))).cloned().collect();
        let images: Vec<ResultPart> =
            content.iter().filter(|part| matches!(part, ResultPart::Image { .. })).cloned().collect();
        let version = |limit: usize| -> Vec<ResultPart> {
            let text = showable.at(limit, tool_use_id).text.unwrap_or_else(|| full.to_string());
            frame.iter().cloned().chain([ResultPart::Text { text }]).chain(images.iter().cloned()).collect()
        };
        let current_bytes = wire_len(content);
        let saving = |parts: &Vec<ResultPart>| current_bytes.saturating_sub(wire_len(parts));
        // Smaller limits never weigh more, so search for the largest limit that saves enough.
        let (mut low, mut high) = (MIN_SHOWN_CHARS, current - 1);
        let mut best = version(low);
        if saving(&best) >= need {
            while low < high {
                let middle = low + (high - low).div_ceil(2);
                let candidate = version(middle);
                if saving(&candidate) >= need {
                    low = middle;
                    best = candidate;
                } else {
                    high = middle - 1;
                }
            }
        }
        *content = best;
        before.saturating_sub(wire_len(block))
    }
}
