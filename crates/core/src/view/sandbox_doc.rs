//! The complete HTML document a `js-sandbox` widget runs in its `srcdoc` iframe: a strict inner
//! Content Security Policy (no network, inline script and style only, `data:` images), the author's
//! CSS, their HTML in `#root`, and their code run so that any error is shown in the frame and
//! reported to the page as plain text.

/// The inner policy: nothing may be fetched; only the document's own inline script and style run.
pub const SANDBOX_CSP: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'";

/// `type` of the message the frame posts to its parent when the code throws: `{type, message}`.
pub const ERROR_MESSAGE_TYPE: &str = "autoui-sandbox-error";

/// What the author gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SandboxSource<'a> {
    pub html: &'a str,
    pub css: &'a str,
    pub code: &'a str,
}

/// The `srcdoc` document. The code travels as a JSON string (every `<` escaped) and is started as a
/// new inline script, so no text in it can close the script element early or run outside the
/// error handler; the CSS cannot close its `<style>` element either.
pub fn sandbox_document(source: SandboxSource<'_>) -> String {
    let code = script_json(source.code);
    let css = source.css.replace("</", "<\\/");
    format!(
        concat!(
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\">",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">",
            "<meta name=\"referrer\" content=\"no-referrer\">",
            "<style>:root{{color-scheme:light dark}}*,*::before,*::after{{box-sizing:border-box}}",
            "body{{margin:0;padding:8px;font:13px/1.4 system-ui,sans-serif}}",
            "#autoui-error{{margin:0;padding:8px;white-space:pre-wrap;color:#b42318;",
            "background:#fef3f2;border-left:3px solid #d92d20;font:12px/1.4 ui-monospace,monospace}}</style>",
            "<style>{css}</style></head><body><div id=\"root\">{html}</div>",
            "<script type=\"application/json\" id=\"autoui-code\">{code}</script>",
            "<script>{runner}</script></body></html>"
        ),
        csp = SANDBOX_CSP,
        css = css,
        html = source.html,
        code = code,
        runner = RUNNER.replace("ERROR_TYPE", ERROR_MESSAGE_TYPE),
    )
}

/// Shows an error in place of `#root` (as text) and tells the page; then runs the code.
const RUNNER: &str = concat!(
    "(function(){",
    "var shown=false;",
    "function show(error){",
    "if(shown)return;shown=true;",
    "var text=String(error&&error.stack&&error.name?error.name+': '+error.message:error);",
    "var pre=document.createElement('pre');pre.id='autoui-error';pre.textContent=text;",
    "var root=document.getElementById('root');if(root){root.replaceChildren(pre);}else{document.body.appendChild(pre);}",
    "try{parent.postMessage({type:'ERROR_TYPE',message:text},'*');}catch(_){}",
    "}",
    "window.addEventListener('error',function(event){show(event.error||event.message);});",
    "window.addEventListener('unhandledrejection',function(event){show(event.reason);});",
    "var code=JSON.parse(document.getElementById('autoui-code').textContent);",
    "window.__autouiShow=show;",
    "var script=document.createElement('script');",
    "script.textContent='try{\\n'+code+'\\n}catch(error){window.__autouiShow(error)}';",
    "document.body.appendChild(script);",
    "})();"
);

/// `text` as a JSON string literal safe inside a `<script>` element: `<`, `>` and `&` are escaped, as
/// are the line separators JSON allows but older script parsers did not.
fn script_json(text: &str) -> String {
    let json = serde_json::Value::String(text.to_owned()).to_string();
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(html: &str, css: &str, code: &str) -> String {
        sandbox_document(SandboxSource { html, css, code })
    }

    #[test]
    fn the_document_forbids_every_network_request_before_any_author_content() {
        let doc = document("<p>hi</p>", "p{color:red}", "1");
        let policy = doc.find("Content-Security-Policy").expect("policy meta");
        assert!(
            policy < doc.find("p{color:red}").expect("css"),
            "the policy comes first"
        );
        assert!(SANDBOX_CSP.starts_with("default-src 'none'"));
        assert!(
            !SANDBOX_CSP.contains("connect-src"),
            "fetch falls back to default-src 'none'"
        );
        assert!(!SANDBOX_CSP.contains("http"), "no origin is allowed");
    }

    #[test]
    fn html_and_css_land_where_the_author_expects() {
        let doc = document("<canvas id=\"sky\"></canvas>", "canvas{display:block}", "");
        assert!(doc.contains("<div id=\"root\"><canvas id=\"sky\"></canvas></div>"));
        assert!(doc.contains("<style>canvas{display:block}</style>"));
    }

    #[test]
    fn code_cannot_close_its_script_element() {
        let code = "const s = '</script><script>parent.pwned = 1</script>'; <!-- x";
        let doc = document("", "", code);
        assert_eq!(
            doc.matches("</script>").count(),
            2,
            "only the two scripts we wrote close: {doc}"
        );
        assert!(!doc.contains("<!--"));
        let start =
            doc.find("id=\"autoui-code\">").expect("code block") + "id=\"autoui-code\">".len();
        let end = start + doc[start..].find("</script>").expect("end of code block");
        let decoded: String =
            serde_json::from_str(&doc[start..end]).expect("the code block is a JSON string");
        assert_eq!(decoded, code, "the code reaches the frame unchanged");
    }

    #[test]
    fn css_cannot_close_its_style_element() {
        let doc = document("", "p{}</style><script>parent.pwned=1</script>", "");
        assert_eq!(doc.matches("</style>").count(), 2, "{doc}");
        assert!(
            doc.contains("<style>p{}<\\/style><script>parent.pwned=1<\\/script></style>"),
            "{doc}"
        );
    }

    #[test]
    fn errors_are_shown_as_text_in_the_frame_and_posted_to_the_page() {
        let doc = document("", "", "throw new Error('boom')");
        assert!(
            doc.contains("pre.textContent=text"),
            "the error is text, never markup"
        );
        assert!(doc.contains("catch(error){window.__autouiShow(error)}"));
        assert!(
            doc.contains("addEventListener('error'"),
            "syntax errors are caught too"
        );
        assert!(doc.contains(&format!("type:'{ERROR_MESSAGE_TYPE}'")));
    }
}
