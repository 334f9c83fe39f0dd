// SPDX-License-Identifier: Apache-2.0
// The reference page in a real browser: Debian's chromium driven by
// playwright-core, axe-core injected into the page.  Run by
// tests/integration/test_page.py, which asserts on what this prints:
//
//     node check.mjs '{"origin": "http://127.0.0.1:P", "artifacts": DIR,
//                      "scenarios": ["views", ...], ...}'
//
// Each scenario records what the page showed and which requests it made;
// nothing here decides pass or fail but a scenario that cannot run
// (a selector that never appears): that is reported as {"error": ...}.
import fs from "node:fs";
import path from "node:path";
import {createRequire} from "node:module";
import {chromium} from "playwright-core";

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const cfg = JSON.parse(process.argv[2]);
const ART = cfg.artifacts;
fs.mkdirSync(ART, {recursive: true});

const VIEWPORTS = {desktop: {width: 1280, height: 900},
                   mobile: {width: 390, height: 844}};
const LOCALES = {en: "en-US", es: "es-ES"};
const TIMEOUT = 15000;

const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--disable-extensions", "--disable-default-apps",
           "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
});

/** A fresh context (empty cache and storage) whose browser language is
 *  `lang`; every request and every console problem recorded. */
async function open(lang, viewport = "desktop", {mobile = false} = {}) {
    const context = await browser.newContext({
        locale: LOCALES[lang] || lang, viewport: VIEWPORTS[viewport],
        isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1});
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    const log = {requests: [], console: [], errors: []};
    page.on("requestfinished", async (req) => {
        const resp = await req.response();
        const sizes = await req.sizes().catch(() => null);
        log.requests.push({
            url: req.url(), method: req.method(), status: resp ? resp.status() : null,
            al: (await req.allHeaders())["accept-language"] || null,
            bytes: sizes ? sizes.responseBodySize + sizes.responseHeadersSize : null,
        });
    });
    page.on("requestfailed", (req) => log.requests.push({
        url: req.url(), method: req.method(), status: null, failed: req.failure().errorText}));
    page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") {
            log.console.push(`${m.type()}: ${m.text()}`);
        }
    });
    page.on("pageerror", (e) => log.errors.push(String(e)));
    return {context, page, log};
}

const ready = (page, lang) => page.waitForSelector(
    lang ? `body[data-state="ready"][data-lang="${lang}"]` : 'body[data-state="ready"]');

/** Everything the page shows, section by section, as text. */
async function shown(page) {
    return page.evaluate(() => {
        const texts = (sel) => [...document.querySelectorAll(sel)].map((e) => e.innerText.trim());
        return {
            htmlLang: document.documentElement.lang,
            title: document.title,
            name: texts("#name")[0], headline: texts("#headline")[0],
            summary: texts("#summary")[0],
            metrics: texts(".metric-value"),
            metricLabels: texts(".metric-label"),
            experience: texts("#experience .card h3"),
            caseStudies: texts("#case-studies .card h3"),
            skills: texts(".skill-group h3"),
            education: texts("#education .card h3"),
            contacts: [...document.querySelectorAll("#contact a")].map((a) => a.getAttribute("href")),
            pressed: [...document.querySelectorAll(".lang button[aria-pressed=true]")].map((b) => b.dataset.lang),
            labels: {skills: texts("#skills-h")[0], search: texts("label[for=skills-q]")[0]},
            footer: texts("#footer-text")[0],
        };
    });
}

async function axe(page) {
    // Evaluated through the DevTools protocol: the page's CSP, which
    // forbids inline script, does not apply to it.
    if (!await page.evaluate(() => typeof window.axe !== "undefined")) {
        await page.evaluate(AXE);
    }
    const res = await page.evaluate(async () => {
        const r = await window.axe.run(document, {
            runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
        });
        return {violations: r.violations.map((v) => ({id: v.id, impact: v.impact,
            help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5)})),
                passes: r.passes.length};
    });
    return res;
}

const api = (log) => log.requests.filter((r) => /\/api\/v1\//.test(r.url));

const scenarios = {
    // Every section in en and es, desktop and mobile: what is shown,
    // axe-core, a screenshot, the requests and bytes of the first view.
    async views() {
        const out = {};
        for (const lang of ["en", "es"]) {
            for (const vp of ["desktop", "mobile"]) {
                const {context, page, log} = await open(lang, vp, {mobile: vp === "mobile"});
                const resp = await page.goto(cfg.origin + (cfg.path || "/"));
                await ready(page);
                await page.waitForLoadState("networkidle");
                const s = await shown(page);
                const shot = path.join(ART, `page-${lang}-${vp}.png`);
                await page.screenshot({path: shot, fullPage: true});
                // The first screen alone, as a visitor sees it at first.
                await page.screenshot({path: path.join(ART, `page-${lang}-${vp}-top.png`)});
                out[`${lang}-${vp}`] = {
                    shown: s, axe: await axe(page), screenshot: shot,
                    csp: resp.headers()["content-security-policy"] || null,
                    requests: log.requests, console: log.console, errors: log.errors,
                };
                await context.close();
            }
        }
        return out;
    },

    // The language switch: click, <html lang>, remembered after a
    // reload; keyboard operation of it.
    async switch() {
        const {context, page, log} = await open("en");
        await page.goto(cfg.origin + "/");
        await ready(page, "en");
        const before = await shown(page);
        await page.getByRole("button", {name: "Español"}).click();
        await ready(page, "es");
        const after = await shown(page);
        await page.reload();
        await ready(page);
        const reloaded = await shown(page);
        // Keyboard: focus the English button, press Enter.
        await page.locator('.lang button[data-lang="en"]').focus();
        await page.keyboard.press("Enter");
        await ready(page, "en");
        const byKeyboard = await shown(page);
        await context.close();
        return {before, after, reloaded, byKeyboard, requests: api(log),
                console: log.console, errors: log.errors};
    },

    // Detail views by id, opened by deep links, and an unknown id.
    async deepLinks() {
        const out = {};
        for (const [lang, hash] of cfg.deepLinks) {
            const {context, page, log} = await open(lang);
            await page.goto(cfg.origin + "/" + hash);
            await page.waitForSelector('#detail[open]:is([data-state="ready"],[data-state="problem"])');
            out[`${lang} ${hash}`] = await page.evaluate(() => ({
                open: document.getElementById("detail").open,
                state: document.getElementById("detail").dataset.state,
                title: document.getElementById("detail-title").innerText,
                body: document.getElementById("detail-body").innerText,
                focused: document.activeElement && document.activeElement.id,
                htmlLang: document.documentElement.lang,
            }));
            if (lang === "es") {
                await page.screenshot({path: path.join(ART, `page-${lang}-detail-${hash.split("/")[2]}.png`)});
            }
            out[`${lang} ${hash}`].console = log.console;
            await context.close();
        }
        return out;
    },

    // The skills search (q, debounced, never sent empty) and the company
    // filter.
    async search() {
        const {context, page, log} = await open("en");
        await page.goto(cfg.origin + "/");
        await ready(page);
        const box = page.locator("#skills-q");
        const searched = page.waitForResponse((r) => r.url().includes("/skills?q="));
        await box.fill(cfg.query);
        await searched;
        await page.waitForFunction(() => document.getElementById("skills-count").innerText !== "");
        const found = await shown(page);
        const count = await page.locator("#skills-count").innerText();
        await box.fill("   ");
        // The whole list again (perhaps from the browser's cache, which
        // reports no response): wait for it on the page.
        await page.waitForFunction((n) => document.getElementById("skills-count").innerText === ""
                                   && document.querySelectorAll(".skill-group").length > n,
                                   found.skills.length);
        const cleared = await shown(page);
        // Pressing Enter in the box searches at once.
        await box.fill(cfg.noMatch);
        await box.press("Enter");
        await page.waitForFunction(() => document.getElementById("skills-count").innerText !== "");
        const none = {count: await page.locator("#skills-count").innerText(),
                      skills: (await shown(page)).skills};
        const options = await page.locator("#company option").allInnerTexts();
        const filteredAnswer = page.waitForResponse((r) => r.url().includes("/experience?company="));
        await page.locator("#company").selectOption(cfg.company);
        await filteredAnswer;
        await page.waitForFunction(() => document.getElementById("experience-count").innerText !== "");
        const filtered = await shown(page);
        const filterCount = await page.locator("#experience-count").innerText();
        await page.screenshot({path: path.join(ART, "page-en-search.png")});
        await context.close();
        return {found, count, cleared, none, options, filtered, filterCount,
                requests: api(log), console: log.console, errors: log.errors};
    },

    // Keyboard only: the order Tab visits, a detail opened with Enter,
    // closed with Escape, focus given back.
    async keyboard() {
        const {context, page} = await open("en");
        await page.goto(cfg.origin + "/");
        await ready(page);
        const order = [];
        for (let i = 0; i < 14; i++) {
            await page.keyboard.press("Tab");
            order.push(await page.evaluate(() => {
                const e = document.activeElement;
                const r = e.getBoundingClientRect();
                const st = getComputedStyle(e);
                // Visible and not obscured (WCAG 2.2 2.4.11): what is
                // drawn at its centre is the element itself.
                const atCentre = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return {tag: e.tagName.toLowerCase(), text: (e.innerText || e.value || "").trim().slice(0, 40),
                        visible: r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight
                                 && !!atCentre && (e === atCentre || e.contains(atCentre)),
                        outline: st.outlineStyle !== "none" && parseFloat(st.outlineWidth) >= 2};
            }));
        }
        // The skip link moves focus into main.
        await page.keyboard.press("Shift+Tab");
        await page.goto(cfg.origin + "/");
        await ready(page);
        await page.keyboard.press("Tab");
        const skip = await page.evaluate(() => document.activeElement.className);
        await page.keyboard.press("Enter");
        const afterSkip = await page.evaluate(() => document.activeElement.id);
        // A "Details" link: focus it, Enter, Escape.
        const details = page.locator('#experience a[href^="#/experience/"]').first();
        await details.focus();
        const href = await details.getAttribute("href");
        await page.keyboard.press("Enter");
        await page.waitForSelector('#detail[open][data-state="ready"]');
        const inDialog = await page.evaluate(() => document.getElementById("detail").contains(document.activeElement));
        const hashOpen = await page.evaluate(() => location.hash);
        await page.keyboard.press("Escape");
        await page.waitForSelector("#detail:not([open])", {state: "attached"});
        const back = await page.evaluate(() => ({href: document.activeElement.getAttribute("href"),
                                                 hash: location.hash}));
        await context.close();
        return {order, skip, afterSkip, href, inDialog, hashOpen, back};
    },

    // Print to PDF, and the print stylesheet's layout.
    async print() {
        const {context, page} = await open("en");
        await page.goto(cfg.origin + "/");
        await ready(page);
        await page.emulateMedia({media: "print"});
        const layout = await page.evaluate(() => {
            const vis = (sel) => [...document.querySelectorAll(sel)].some((e) => e.offsetParent !== null || getComputedStyle(e).display !== "none" && e.getClientRects().length > 0);
            return {bar: vis(".bar"), search: vis("#skills-form"), details: vis(".more"),
                    caseStudyParts: vis(".printonly"), name: vis("#name"),
                    urlsWritten: getComputedStyle(document.querySelector('#contact a[href^="mailto:"]'), "::after").content};
        });
        await page.screenshot({path: path.join(ART, "page-en-print.png"), fullPage: true});
        const pdf = path.join(ART, "page-en.pdf");
        await page.pdf({path: pdf, format: "A4", printBackground: false});
        const bytes = fs.readFileSync(pdf);
        const pages = (bytes.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length;
        await context.close();
        return {layout, pdf, size: bytes.length, pages,
                head: bytes.subarray(0, 5).toString("latin1")};
    },

    // The page's own link check, run in the browser on the page's module.
    async links() {
        const {context, page} = await open("en");
        await page.goto(cfg.origin + "/");
        await ready(page);
        const result = await page.evaluate(async (urls) => {
            const m = await import(new URL("js/dom.js", document.baseURI).href);
            return urls.map((u) => [u, m.safeHref(u), m.link(u, "x").tagName]);
        }, cfg.urls);
        await context.close();
        return result;
    },

    // The server goes away after the page loaded (the browser offline:
    // every request fails as a refused connection does), then comes back.
    async down() {
        const {context, page, log} = await open("en");
        await page.goto(cfg.origin + "/");
        await ready(page, "en");
        await context.setOffline(true);
        await page.getByRole("button", {name: "Español"}).click();
        await page.waitForSelector('#banner[data-state="down"]:not([hidden])');
        const banner = await page.locator("#banner-text").innerText();
        const kept = await shown(page);
        await page.screenshot({path: path.join(ART, "page-en-down.png")});
        await context.setOffline(false);
        await page.locator("#banner-retry").click();
        await ready(page, "es");
        const back = {hidden: await page.locator("#banner").isHidden(), shown: await shown(page)};
        await context.close();
        return {banner, kept, back, errors: log.errors};
    },

    // A base whose data never loaded: 503 with Retry-After, a countdown.
    async unavailable() {
        const out = {};
        for (const lang of ["en", "es"]) {
            const {context, page, log} = await open(lang);
            await page.goto(cfg.origin + cfg.brokenPath);
            await page.waitForSelector('#banner[data-state="unavailable"]:not([hidden])');
            const first = await page.locator("#banner-text").innerText();
            const detail = await page.locator("#banner-detail").innerText();
            await page.waitForTimeout(2200);
            const later = await page.locator("#banner-text").innerText();
            await page.screenshot({path: path.join(ART, `page-${lang}-503.png`)});
            out[lang] = {first, later, detail, htmlLang: await page.evaluate(() => document.documentElement.lang),
                         axe: await axe(page), statuses: api(log).map((r) => r.status)};
            await context.close();
        }
        return out;
    },

    // en -> es -> en -> es -> en: API requests that reached the network
    // at each step, for the page at each path (one base, one base per
    // language).
    async toggles() {
        const out = {};
        for (const p of cfg.togglePaths) {
            const {context, page, log} = await open("en");
            await page.goto(cfg.origin + p);
            await ready(page, "en");
            await page.waitForLoadState("networkidle");
            // What reached the network: Resource Timing's transferSize is 0
            // for an answer the browser's cache gave without asking.
            const network = () => page.evaluate(() => {
                const n = performance.getEntriesByType("resource")
                    .filter((e) => /\/api\/v1\//.test(e.name) && e.transferSize > 0).length;
                performance.clearResourceTimings();
                return n;
            });
            const counts = [await network()];
            const fetched = [];
            for (const lang of ["es", "en", "es", "en"]) {
                const n = api(log).length;
                await page.locator(`.lang button[data-lang="${lang}"]`).click();
                await ready(page, lang);
                await page.waitForLoadState("networkidle");
                counts.push(await network());
                fetched.push(api(log).length - n);
            }
            out[p] = {counts, fetched, requests: api(log)};
            await context.close();
        }
        return out;
    },
};

const results = {};
for (const name of cfg.scenarios) {
    try {
        results[name] = await scenarios[name]();
    }
    catch (err) {
        results[name] = {error: String(err && err.stack || err)};
    }
}
await browser.close();
process.stdout.write(JSON.stringify(results));
