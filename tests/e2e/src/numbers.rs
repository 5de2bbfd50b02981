//! Numbers as the app shows them, for scenarios that compare the screen with the data.

/// `29638524` -> `29,638,524`: integers with grouped thousands, as widgets format them.
pub fn grouped(value: i64) -> String {
    let digits = value.unsigned_abs().to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if value < 0 {
        text.push('-');
    }
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}
