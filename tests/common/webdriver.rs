//! A minimal synchronous WebDriver client (the W3C protocol's JSON over HTTP, through ureq) for the browser tests:
//! it starts Debian's chromedriver and a headless Chromium, and offers what the tests need: navigate, find, click,
//! type, run a script, resize and take a screenshot.
#![allow(dead_code)]

use std::io::Write;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Where Debian puts them.
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The W3C key of an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Why the browser tests cannot run here, or `None` when they can. Under CI (`CI=true`) a missing browser is a
/// failure, not a reason.
pub fn unavailable() -> Option<String> {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !std::path::Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return None;
    }
    let why = format!(
        "{} not installed (apt-get install chromium chromium-driver)",
        missing.join(" and ")
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI must run the browser tests, but {why}");
    }
    Some(why)
}

/// Says plainly, past the test harness's capture of output, that a browser test was skipped.
pub fn say_skipped(test: &str, why: &str) {
    let mut err = std::io::stderr();
    let _ = writeln!(err, "SKIPPED browser test {test}: {why}");
}

/// A browser session and the chromedriver it runs in.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
    _profile: tempdir::Dir,
}

mod tempdir {
    /// A directory removed when dropped.
    pub struct Dir(pub std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// Starts chromedriver and a headless Chromium of `width` x `height` pixels with a fresh profile.
    pub fn start(width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(mut r) = agent.get(&format!("{base}/status")).call()
                && r.body_mut()
                    .read_to_string()
                    .is_ok_and(|t| t.contains("\"ready\":true"))
            {
                break;
            }
            assert!(Instant::now() < until, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile =
            std::env::temp_dir().join(format!("oust-gui-chromium-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let args = [
            "--headless".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-quic".to_string(),
            "--no-first-run".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            "--disable-dev-shm-usage".to_string(),
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={width},{height}"),
            // A desktop with a mouse, as `(hover: hover)` and `(pointer: fine)` see it: headless Chromium has no
            // pointing device of its own. Touch emulation (`Emulation.setTouchEmulationEnabled`) makes it a touch
            // screen.
            "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4"
                .to_string(),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }}});
        let mut b = Browser {
            driver,
            base,
            session: String::new(),
            agent,
            _profile: tempdir::Dir(profile),
        };
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        b
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let response = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or(json!({})).to_string()),
        };
        let mut r = response.unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        let text = r.body_mut().read_to_string().unwrap();
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if v["value"]["error"].is_string() {
            panic!("WebDriver {method} {path}: {}", v["value"]);
        }
        v["value"].clone()
    }

    fn s(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    /// Opens `url`.
    pub fn go(&self, url: &str) {
        self.call("POST", &self.s("/url"), Some(json!({"url": url})));
    }

    /// Runs `script` (a function body; `arguments` are `args`) and returns its value.
    pub fn js(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            &self.s("/execute/sync"),
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Runs `script` asynchronously: its last argument is the callback that returns the value.
    pub fn js_async(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            &self.s("/execute/async"),
            Some(json!({"script": script, "args": args})),
        )
    }

    /// The elements matching a CSS selector, as references.
    pub fn find_all(&self, css: &str) -> Vec<String> {
        let v = self.call(
            "POST",
            &self.s("/elements"),
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT_KEY].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The raw answer of a find, for debugging.
    pub fn debug_find(&self, css: &str) -> Value {
        self.call(
            "POST",
            &self.s("/elements"),
            Some(json!({"using": "css selector", "value": css})),
        )
    }

    /// The one element matching `css`.
    pub fn find(&self, css: &str) -> String {
        let all = self.find_all(css);
        assert!(!all.is_empty(), "no element matches {css}");
        all[0].clone()
    }

    /// Clicks the element matching `css`, as a user does (WebDriver's element click).
    pub fn click(&self, css: &str) {
        let e = self.find(css);
        self.call("POST", &self.s(&format!("/element/{e}/click")), None);
    }

    /// Taps the element matching `css` with a finger (WebDriver's touch pointer), in the middle of it, after
    /// scrolling it into view as a user pans to it.
    pub fn tap(&self, css: &str) {
        let e = self.find(css);
        self.js(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'center', inline: 'center'});",
            json!([css]),
        );
        let mut origin = serde_json::Map::new();
        origin.insert(ELEMENT_KEY.to_string(), json!(e));
        let finger = json!({
            "type": "pointer",
            "id": "finger",
            "parameters": {"pointerType": "touch"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": Value::Object(origin), "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0},
            ],
        });
        self.call(
            "POST",
            &self.s("/actions"),
            Some(json!({"actions": [finger]})),
        );
        self.call("DELETE", &self.s("/actions"), None);
    }

    /// Moves the mouse pointer over the middle of the element matching `css` (WebDriver's mouse pointer).
    pub fn hover(&self, css: &str) {
        let e = self.find(css);
        let mut origin = serde_json::Map::new();
        origin.insert(ELEMENT_KEY.to_string(), json!(e));
        let mouse = json!({
            "type": "pointer",
            "id": "mouse",
            "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": Value::Object(origin), "x": 0, "y": 0},
            ],
        });
        self.call(
            "POST",
            &self.s("/actions"),
            Some(json!({"actions": [mouse]})),
        );
    }

    /// Sends a Chrome DevTools Protocol command (`Emulation.setEmulatedMedia`, say) and returns its result.
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.call(
            "POST",
            &self.s("/goog/cdp/execute"),
            Some(json!({"cmd": cmd, "params": params})),
        )
    }

    /// Types `text` into the element matching `css` (for a file input: a path).
    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call(
            "POST",
            &self.s(&format!("/element/{e}/value")),
            Some(json!({"text": text})),
        );
    }

    /// Presses keys (WebDriver key codes such as `\u{E012}` for the left arrow) on the page, as a user does.
    pub fn keys(&self, keys: &str) {
        let actions: Vec<Value> = keys
            .chars()
            .flat_map(|c| {
                [
                    json!({"type": "keyDown", "value": c.to_string()}),
                    json!({"type": "keyUp", "value": c.to_string()}),
                ]
            })
            .collect();
        self.call(
            "POST",
            &self.s("/actions"),
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// The text of the element matching `css`.
    pub fn text(&self, css: &str) -> String {
        self.js(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
            json!([css]),
        )
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    /// Waits until `script` returns true, for at most `limit`; panics with `what` otherwise.
    pub fn wait_for(&self, script: &str, args: Value, limit: Duration, what: &str) {
        let until = Instant::now() + limit;
        loop {
            if self.js(script, args.clone()) == Value::Bool(true) {
                return;
            }
            assert!(Instant::now() < until, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// Sets the window's size.
    pub fn resize(&self, width: u32, height: u32) {
        self.call(
            "POST",
            &self.s("/window/rect"),
            Some(json!({"width": width, "height": height})),
        );
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", &self.s("/screenshot"), None);
        base64_decode(v.as_str().expect("base64 text"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self
                .agent
                .delete(&format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Decodes standard base64 (WebDriver's screenshots).
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
