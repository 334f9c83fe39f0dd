// SPDX-License-Identifier: Apache-2.0
// The page the module renders (CONTRACT §11) in a real browser: Debian's
// chromium driven by playwright-core, axe-core injected into the page.
// Run by tests/integration/test_page.py, which asserts on what this
// prints (one JSON object on stdout):
//
//     node check.mjs '{"artifacts": DIR, "states": [...], "dialog": {...},
//                      "print": {...}}'
//
// A state is one page load: {key, url, lang, js, viewport: {width,
// height}, mobile, shot}.  For each it records what the DOM holds (texts,
// links, sections, scripts, attributes), the console, page errors, CSP
// violations, script dialogs (an injected alert), requests that failed,
// the horizontal overflow, axe-core's result, and a screenshot.  Nothing
// here decides pass or fail; a scenario that cannot run (a dialog that
// never opens) is reported as {"error": ...} beside what was recorded.
import fs from "node:fs";
import path from "node:path";
import {createRequire} from "node:module";
import {chromium} from "playwright-core";

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];
const cfg = JSON.parse(process.argv[2]);
const ART = cfg.artifacts;
fs.mkdirSync(ART, {recursive: true});

const LOCALES = {en: "en-US", es: "es-ES"};
const TIMEOUT = 15000;

const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--disable-extensions", "--disable-default-apps",
           // Nothing the page (or hostile data in it) names may leave
           // the machine.
           "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});

/** A fresh context (empty cache and storage): the browser language, the
 *  viewport, JavaScript on or off; every console problem, page error,
 *  CSP violation, script dialog and failed request recorded. */
async function open(st) {
    const context = await browser.newContext({
        locale: LOCALES[st.lang] || st.lang, viewport: st.viewport,
        isMobile: !!st.mobile, hasTouch: !!st.mobile, deviceScaleFactor: 1,
        javaScriptEnabled: st.js !== false});
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    const log = {console: [], errors: [], csp: [], dialogs: [], failed: []};
    // Runs before the page's own scripts (not at all with JavaScript
    // off: then no script of the page's or the data's runs either).
    await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (e) => {
            (window.__cspViolations = window.__cspViolations || []).push(
                `${e.violatedDirective} ${e.blockedURI}`);
        });
    });
    page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") {
            log.console.push(`${m.type()}: ${m.text()}`);
        }
        if (/Content[- ]Security[- ]Policy|Refused to/i.test(m.text())) {
            log.csp.push(m.text());
        }
    });
    page.on("pageerror", (e) => log.errors.push(String(e)));
    page.on("dialog", async (d) => {
        log.dialogs.push(`${d.type()}: ${d.message()}`);
        await d.dismiss().catch(() => {});
    });
    page.on("requestfailed", (req) => log.failed.push(`${req.url()} ${req.failure().errorText}`));
    page.on("response", (r) => {
        // The document's own status is the test's to judge (a 404 page).
        if (r.status() >= 400 && !(r.request().isNavigationRequest() && r.frame() === page.mainFrame())) {
            log.failed.push(`${r.url()} ${r.status()}`);
        }
    });
    return {context, page, log};
}

/** What the DOM holds, for the test to compare with the data. */
function facts() {
    const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
    const all = (sel) => [...document.querySelectorAll(sel)];
    const first = (sel) => document.querySelector(sel);
    // The language a text is in: the nearest lang attribute of the
    // innermost element carrying one within `e`, or of `e` itself.
    const langOf = (e) => {
        if (!e) {
            return null;
        }
        const inner = e.querySelector("[lang]");
        const at = inner && norm(inner.textContent) === norm(e.textContent) ? inner : e;
        const holder = at.closest("[lang]");
        return holder ? holder.getAttribute("lang") : null;
    };
    const heading = /^H[1-6]$/;
    const sections = all("section").map((s) => {
        const rest = [...s.children].filter((c) => !heading.test(c.tagName));
        const h = [...s.children].find((c) => heading.test(c.tagName));
        return {id: s.id || null, cls: s.className || null, heading: h ? norm(h.textContent) : null,
                content: rest.some((c) => norm(c.textContent) !== "" || c.querySelector("img, svg")),
                hidden: s.hidden || getComputedStyle(s).display === "none"};
    });
    const navLinks = all("nav a").filter((a) => (a.getAttribute("href") || "").startsWith("#")).map((a) => {
        const target = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
        return {href: a.getAttribute("href"), text: norm(a.textContent), target: !!target,
                targetContent: !!target && norm(target.textContent) !== ""};
    });
    const onAttrs = [];
    for (const e of all("*")) {
        for (const a of e.attributes) {
            if (/^on/i.test(a.name)) {
                onAttrs.push(`${e.tagName.toLowerCase()}[${a.name}]`);
            }
        }
    }
    const comments = [];
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_COMMENT);
    while (walker.nextNode()) {
        comments.push(walker.currentNode.data.slice(0, 80));
    }
    // Text nodes holding a bidi override (U+202E), and how many of them
    // sit in an isolating element (<bdi>, dir=, unicode-bidi: isolate or
    // plaintext) below <body>, which keeps the override from reordering
    // the page's own text around it.
    const bidi = {nodes: 0, isolated: 0};
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (texts.nextNode()) {
        if (!texts.currentNode.data.includes("\u202e")) {
            continue;
        }
        bidi.nodes++;
        for (let e = texts.currentNode.parentElement; e && e !== document.body; e = e.parentElement) {
            if (e.tagName === "BDI" || e.hasAttribute("dir")
                || /isolate|plaintext/.test(getComputedStyle(e).unicodeBidi)) {
                bidi.isolated++;
                break;
            }
        }
    }
    const de = document.documentElement;
    return {
        bidi,
        url: location.href,
        htmlLang: de.getAttribute("lang"),
        title: document.title,
        h1: all("h1").map((e) => norm(e.textContent)),
        h2: all("h2").map((e) => norm(e.textContent)),
        name: norm((first("#name") || {}).textContent),
        headline: first(".headline") && {text: norm(first(".headline").textContent),
                                         lang: langOf(first(".headline"))},
        text: norm(document.body.textContent),
        hrefs: all("a[href]").map((a) => a.href),
        relMe: all('a[rel~="me"], link[rel~="me"]').map((a) => a.href),
        sections, navLinks,
        dialog: (() => {
            const d = first("dialog[open]");
            return d ? norm(d.textContent) : null;
        })(),
        scripts: all("script").map((s) => ({type: s.getAttribute("type"), src: s.getAttribute("src"),
                                            inline: s.hasAttribute("src") ? null : s.textContent.length})),
        jsonld: all('script[type="application/ld+json"]').map((s) => s.textContent),
        imgs: all("img").map((i) => i.getAttribute("src")),
        imgOnerror: all("img[onerror]").length,
        onAttrs,
        iframes: all("iframe, object, embed").length,
        comments,
        pwned: de.dataset.pwned || window.__pwned || null,
        cspViolations: window.__cspViolations || [],
        scrollWidth: de.scrollWidth,
        clientWidth: de.clientWidth,
        bodyScrollWidth: document.body.scrollWidth,
        // The widest elements past the right edge, to say what overflows.
        overflowing: all("body *").filter((e) => e.getBoundingClientRect().right > de.clientWidth + 0.5)
            .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : ""} right=${Math.round(e.getBoundingClientRect().right)}`),
    };
}

/** A promise that gives up after `ms` (a scenario must not hang). */
function within(promise, ms, what) {
    let timer;
    return Promise.race([promise, new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    })]).finally(() => clearTimeout(timer));
}

async function axe(page, js = true) {
    // Evaluated through the DevTools protocol: the page's CSP, which
    // forbids inline script, does not apply, and it runs with the page's
    // JavaScript off too.  With JavaScript off, Chromium runs no timer
    // (microtasks do run): axe-core's short timers and
    // requestAnimationFrame become microtasks, and its long ones (the
    // give-up timers of its asset preload, 10 s) never fire, as they
    // would not while the fetches succeed.  Nothing of the page's runs
    // in such a page, so nothing else sees the change.
    if (!js) {
        await page.evaluate(() => {
            window.setTimeout = (fn, ms, ...args) => {
                if (!(ms > 1000)) {
                    Promise.resolve().then(() => fn(...args));
                }
                return 0;
            };
            window.clearTimeout = () => {};
            window.requestAnimationFrame = (fn) => {
                Promise.resolve().then(() => fn(performance.now()));
                return 0;
            };
        });
    }
    if (!await page.evaluate(() => typeof window.axe !== "undefined")) {
        await page.evaluate(AXE);
    }
    return within(page.evaluate(async (tags) => {
        const r = await window.axe.run(document, {runOnly: {type: "tag", values: tags}});
        return {violations: r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                                                      nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5)})),
                passes: r.passes.length, incomplete: r.incomplete.map((v) => v.id)};
    }, AXE_TAGS), 60000, "axe-core");
}

async function settle(page, st) {
    if (st.js !== false) {
        await page.waitForLoadState("networkidle").catch(() => {});
    }
    // Web fonts and layout done before anything is measured.
    await within(page.evaluate(() => document.fonts && document.fonts.ready.then(() => true)), 10000, "fonts")
        .catch(() => {});
}

async function state(st) {
    const {context, page, log} = await open(st);
    const out = {key: st.key, js: st.js !== false, viewport: st.viewport};
    try {
        const resp = await page.goto(st.url, {waitUntil: "load"});
        out.status = resp ? resp.status() : null;
        out.contentLanguage = resp ? resp.headers()["content-language"] || null : null;
        await settle(page, st);
        Object.assign(out, await page.evaluate(facts));
        out.axe = await axe(page, st.js !== false);
        if (st.shot) {
            out.screenshot = path.join(ART, st.shot + ".png");
            await page.screenshot({path: out.screenshot, fullPage: true});
        }
    }
    catch (err) {
        out.error = String(err && err.stack || err);
    }
    await context.close();
    return Object.assign(out, log);
}

/** The case-study dialog: a click on a case study's link in the page
 *  with JavaScript on, then Escape. */
async function dialog(d) {
    const st = {lang: d.lang, viewport: d.viewport, js: true};
    const {context, page, log} = await open(st);
    const out = {};
    try {
        await page.goto(d.url, {waitUntil: "load"});
        await settle(page, st);
        out.urlBefore = page.url();
        out.historyBefore = await page.evaluate(() => history.length);
        // Where Back goes from here: the entry's index (Navigation API).
        out.indexBefore = await page.evaluate(() => navigation.currentEntry.index);
        const link = page.locator(`main a[href$="/case-studies/${d.id}"]`).first();
        out.href = await link.getAttribute("href");
        await link.click();
        const opened = await page.waitForFunction(() => {
            const e = document.querySelector('dialog[open], [role="dialog"]:not([hidden]), [role="alertdialog"]:not([hidden])');
            return e && e.getClientRects().length > 0 && e.textContent.trim() !== "" ? true : null;
        }, null, {timeout: 5000}).then(() => true, () => false);
        out.opened = opened;
        out.urlOpen = page.url();
        out.historyOpen = await page.evaluate(() => history.length);
        out.navigated = out.urlOpen.split("#")[0] !== out.urlBefore.split("#")[0]
            && !(await page.evaluate(() => !!document.querySelector("dialog[open]")));
        if (opened) {
            out.text = await page.evaluate(() => {
                const e = document.querySelector('dialog[open], [role="dialog"]:not([hidden]), [role="alertdialog"]:not([hidden])');
                return {tag: e.tagName.toLowerCase(), modal: e.matches(":modal"),
                        text: e.textContent.replace(/\s+/g, " ").trim(),
                        focusInside: e.contains(document.activeElement),
                        label: e.getAttribute("aria-labelledby") || e.getAttribute("aria-label")};
            });
            out.axe = await axe(page);
            out.screenshot = path.join(ART, d.shot + ".png");
            await page.screenshot({path: out.screenshot});
            await page.keyboard.press("Escape");
            out.closed = await page.waitForFunction(() => !document.querySelector('dialog[open], [role="dialog"]:not([hidden]), [role="alertdialog"]:not([hidden])'),
                                                    null, {timeout: 5000}).then(() => true, () => false);
            // A close by history.back() settles asynchronously.
            await page.waitForTimeout(300);
            out.urlAfter = page.url();
            out.historyAfter = await page.evaluate(() => history.length);
            out.indexAfter = await page.evaluate(() => navigation.currentEntry.index);
            out.focusAfter = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute("href"));
            // Two more open-and-close cycles: history does not grow with
            // them (a visitor from elsewhere needs one Back to leave).
            for (let i = 0; i < 2; i++) {
                await link.click();
                await page.waitForSelector("dialog[open]", {timeout: 5000});
                await page.keyboard.press("Escape");
                await page.waitForFunction(() => !document.querySelector("dialog[open]"),
                                           null, {timeout: 5000});
                await page.waitForTimeout(300);
            }
            out.historyAfter3 = await page.evaluate(() => history.length);
            out.indexAfter3 = await page.evaluate(() => navigation.currentEntry.index);
            out.urlAfter3 = page.url();
        }
        else {
            out.error = `no dialog opened within 5 s of a click on ${out.href}` +
                (out.navigated ? ` (the browser went to ${out.urlOpen} instead)` : "");
            out.screenshot = path.join(ART, d.shot + ".png");
            await page.screenshot({path: out.screenshot});
        }
        out.cspViolations = await page.evaluate(() => window.__cspViolations || []);
    }
    catch (err) {
        out.error = String(err && err.stack || err);
    }
    await context.close();
    return Object.assign(out, log);
}

/** The page printed to an A4 PDF (the test counts its pages and reads
 *  page 1 with poppler-utils). */
async function print(p) {
    const st = {lang: p.lang, viewport: {width: 1280, height: 900}, js: true};
    const {context, page, log} = await open(st);
    const out = {pdf: p.pdf};
    try {
        await page.goto(p.url, {waitUntil: "load"});
        await settle(page, st);
        await page.emulateMedia({media: "print"});
        await page.pdf({path: p.pdf, format: "A4"});
        out.size = fs.statSync(p.pdf).size;
    }
    catch (err) {
        out.error = String(err && err.stack || err);
    }
    await context.close();
    return Object.assign(out, log);
}

const results = {states: {}};
for (const st of cfg.states || []) {
    results.states[st.key] = await state(st);
}
if (cfg.dialog) {
    results.dialog = await dialog(cfg.dialog);
}
if (cfg.print) {
    results.print = await print(cfg.print);
}
results.chromium = browser.version();
await browser.close();
process.stdout.write(JSON.stringify(results));
