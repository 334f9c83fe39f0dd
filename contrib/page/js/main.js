// SPDX-License-Identifier: Apache-2.0
// The reference page: reads the seven resources of the API named by
// <meta name="profile-api">, in the visitor's language, and renders
// them; detail views by id in a dialog (#/experience/ID,
// #/case-studies/ID); the visitor's states (loading, 503 with its
// countdown, server unreachable, unknown id).

import {ApiDown, createApi} from "./api.js";
import {h, link, replaceChildren} from "./dom.js";
import {browserLanguage, PAGE_LANGUAGES, t} from "./i18n.js";
import * as render from "./render.js";

const STORE_KEY = "mod_profile.page.lang";
const DEFAULT_RETRY = 30;
const ROUTES = ["/profile", "/metrics", "/experience", "/case-studies",
                "/skills", "/education", "/contact"];

const meta = document.querySelector('meta[name="profile-api"]');
const api = createApi((meta && meta.content) || "/api/v1");

const state = {
    choice: readChoice(),  // the language the visitor chose, or null
    lang: document.documentElement.lang || "en",  // what the API answered
    experience: [],
    countdown: null,
    loadSeq: 0,
    skillsAbort: null,
    companyAbort: null,
    detailAbort: null,
    opener: null,
};

function readChoice() {
    try {
        const v = localStorage.getItem(STORE_KEY);
        return PAGE_LANGUAGES.includes(v) ? v : null;
    }
    catch {
        return null;  // storage disabled: the choice lasts for this visit
    }
}

function storeChoice(lang) {
    state.choice = lang;
    try {
        localStorage.setItem(STORE_KEY, lang);
    }
    catch {
        /* see readChoice */
    }
}

/** What the page asks for: the visitor's choice; with one base per
 *  language and no choice, the browser's first language the page knows;
 *  otherwise null (the browser's own Accept-Language decides). */
function requestLanguage() {
    if (state.choice) {
        return state.choice;
    }
    if (api.perLanguage) {
        return browserLanguage() || PAGE_LANGUAGES[0];
    }
    return null;
}

const $ = (id) => document.getElementById(id);
const slot = (route) => document.querySelector(`.slot[data-route="${route}"]`);

// ------------------------------------------------------------ texts
function applyTexts() {
    const lang = state.lang;
    document.documentElement.lang = lang;
    for (const el of document.querySelectorAll("[data-t]")) {
        el.textContent = t(lang, el.dataset.t);
    }
    for (const el of document.querySelectorAll("[data-t-label]")) {
        el.setAttribute("aria-label", t(lang, el.dataset.tLabel));
    }
    for (const button of document.querySelectorAll(".lang button")) {
        button.setAttribute("aria-pressed",
                            String(button.dataset.lang === lang.split("-")[0]));
    }
}

// ------------------------------------------------------------ banner
function clearBanner() {
    if (state.countdown) {
        clearInterval(state.countdown);
        state.countdown = null;
    }
    $("banner").hidden = true;
    $("banner").dataset.state = "";
}

function showUnavailable(answer) {
    clearBanner();
    const banner = $("banner");
    let left = answer.retryAfter ?? DEFAULT_RETRY;
    banner.dataset.state = "unavailable";
    $("banner-detail").textContent = (answer.problem && answer.problem.detail) || "";
    const tick = () => {
        $("banner-text").textContent = t(state.lang, "unavailable") + " "
            + t(state.lang, "countdown", {n: left});
        if (left <= 0) {
            clearBanner();
            loadAll();
        }
        left -= 1;
    };
    banner.hidden = false;
    tick();
    state.countdown = setInterval(tick, 1000);
}

function showDown() {
    clearBanner();
    $("banner").dataset.state = "down";
    $("banner-text").textContent = t(state.lang, "down");
    $("banner-detail").textContent = "";
    $("banner").hidden = false;
}

// ------------------------------------------------------------ loading
function setLanguageFrom(answer) {
    if (answer && answer.lang) {
        state.lang = answer.lang;
    }
    else if (state.choice) {
        state.lang = state.choice;
    }
    applyTexts();
}

function footer(answer) {
    const parts = [t(state.lang, "footer", {lang: t(state.lang, "langName")})];
    if (answer && answer.lastModified) {
        const date = new Date(answer.lastModified);
        if (!Number.isNaN(date.getTime())) {
            parts.push(t(state.lang, "updated", {
                date: date.toLocaleDateString(state.lang, {
                    year: "numeric", month: "long", day: "numeric"}),
            }));
        }
    }
    $("footer-text").textContent = parts.join(" · ");
}

const RENDERERS = {
    "/profile": (body) => {
        render.profile(body);
        document.title = body.headline ? `${body.name} — ${body.headline}` : body.name;
    },
    "/metrics": (body) => replaceChildren(slot("/metrics"), render.metrics(body)),
    "/experience": (body) => {
        state.experience = body;
        companyOptions(body);
        replaceChildren(slot("/experience"), render.experience(body, state.lang));
    },
    "/case-studies": (body) => replaceChildren(slot("/case-studies"),
                                               render.caseStudies(body, state.lang)),
    "/skills": (body) => replaceChildren(slot("/skills"), render.skills(body)),
    "/education": (body) => replaceChildren(slot("/education"), render.education(body)),
    "/contact": (body) => replaceChildren(slot("/contact"), render.contact(body, state.lang)),
};

async function loadAll() {
    const seq = ++state.loadSeq;
    const lang = requestLanguage();
    $("main").setAttribute("aria-busy", "true");
    const settled = await Promise.allSettled(ROUTES.map((route) => {
        const params = route === "/skills" ? {q: $("skills-q").value}
            : route === "/experience" ? {company: $("company").value} : null;
        return api.get(route, {lang, params});
    }));
    if (seq !== state.loadSeq) {
        return;  // a later load (another language) won
    }
    $("main").setAttribute("aria-busy", "false");
    const answers = Object.fromEntries(ROUTES.map((r, i) => [r, settled[i]]));
    if (settled.every((s) => s.status === "rejected")) {
        if (settled.some((s) => s.reason instanceof ApiDown)) {
            showDown();
        }
        document.body.dataset.state = "down";
        return;
    }
    const first = settled.find((s) => s.status === "fulfilled").value;
    setLanguageFrom(first);
    const unavailable = settled.find((s) => s.status === "fulfilled"
                                     && s.value.status === 503);
    if (unavailable) {
        showUnavailable(unavailable.value);
        document.body.dataset.state = "unavailable";
        return;  // keep what is on screen; the countdown loads again
    }
    clearBanner();
    for (const route of ROUTES) {
        const s = answers[route];
        if (s.status === "fulfilled" && s.value.ok) {
            RENDERERS[route](s.value.body);
        }
        else {
            const problem = s.status === "fulfilled" ? s.value.problem : null;
            const box = render.problemBox(problem, t(state.lang, "failed"));
            if (route === "/profile") {
                $("name").textContent = t(state.lang, "failed");
                replaceChildren($("summary"), box);
            }
            else {
                replaceChildren(slot(route), box);
            }
        }
    }
    if (answers["/profile"].status === "fulfilled") {
        footer(answers["/profile"].value);
    }
    countSkills(answers["/skills"]);
    countExperience(answers["/experience"]);
    document.body.dataset.state = "ready";
    document.body.dataset.lang = state.lang;
    await openFromHash();
}

// ------------------------------------------------------------ skills search
function countSkills(settled) {
    const q = $("skills-q").value.trim();
    const out = $("skills-count");
    if (!q || settled.status !== "fulfilled") {
        out.textContent = "";
        return;
    }
    const answer = settled.value;
    if (!answer.ok) {
        out.textContent = (answer.problem && answer.problem.detail) || "";
        return;
    }
    const n = answer.body.length;
    out.textContent = t(state.lang, n === 0 ? "noMatch" : n === 1 ? "group1" : "groups",
                        {n, q});
}

async function searchSkills() {
    if (state.skillsAbort) {
        state.skillsAbort.abort();
    }
    const controller = new AbortController();
    state.skillsAbort = controller;
    const target = slot("/skills");
    target.setAttribute("aria-busy", "true");
    let settled;
    try {
        const answer = await api.get("/skills", {lang: requestLanguage(),
            params: {q: $("skills-q").value}, signal: controller.signal});
        settled = {status: "fulfilled", value: answer};
        if (answer.ok) {
            replaceChildren(target, render.skills(answer.body));
        }
        else if (answer.status === 503) {
            showUnavailable(answer);
        }
        else {
            replaceChildren(target, render.problemBox(answer.problem, t(state.lang, "failed")));
        }
    }
    catch (err) {
        if (err.name === "AbortError") {
            return;
        }
        settled = {status: "rejected", reason: err};
        showDown();
    }
    finally {
        if (state.skillsAbort === controller) {
            target.setAttribute("aria-busy", "false");
        }
    }
    countSkills(settled);
}

// ------------------------------------------------------------ company filter
function companyOptions(records) {
    const select = $("company");
    if (select.value !== "") {
        return;  // a filtered list: keep the options of the whole one
    }
    const names = [...new Set(records.map((r) => r.company))];
    replaceChildren(select,
                    h("option", {value: ""}, t(state.lang, "allCompanies")),
                    names.map((name) => h("option", {value: name}, name)));
}

function countExperience(settled) {
    const c = $("company").value;
    const out = $("experience-count");
    if (!c || settled.status !== "fulfilled" || !settled.value.ok) {
        out.textContent = "";
        return;
    }
    const n = settled.value.body.length;
    out.textContent = t(state.lang, n === 0 ? "noRecords" : n === 1 ? "record1" : "records",
                        {n, c});
}

async function filterCompany() {
    if (state.companyAbort) {
        state.companyAbort.abort();
    }
    const controller = new AbortController();
    state.companyAbort = controller;
    let settled;
    try {
        const answer = await api.get("/experience", {lang: requestLanguage(),
            params: {company: $("company").value}, signal: controller.signal});
        settled = {status: "fulfilled", value: answer};
        if (answer.ok) {
            replaceChildren(slot("/experience"), render.experience(answer.body, state.lang));
        }
        else if (answer.status === 503) {
            showUnavailable(answer);
        }
        else {
            replaceChildren(slot("/experience"),
                            render.problemBox(answer.problem, t(state.lang, "failed")));
        }
    }
    catch (err) {
        if (err.name === "AbortError") {
            return;
        }
        settled = {status: "rejected", reason: err};
        showDown();
    }
    countExperience(settled);
}

// ------------------------------------------------------------ detail views
const DETAIL = /^#\/(experience|case-studies)\/([A-Za-z0-9][A-Za-z0-9._~-]*)$/;

async function openFromHash() {
    const m = DETAIL.exec(location.hash);
    const dialog = $("detail");
    if (!m) {
        if (dialog.open) {
            dialog.close();
        }
        return;
    }
    const [, kind, id] = m;
    if (state.detailAbort) {
        state.detailAbort.abort();
    }
    const controller = new AbortController();
    state.detailAbort = controller;
    $("detail-title").textContent = t(state.lang, "loading");
    replaceChildren($("detail-body"));
    dialog.dataset.state = "loading";
    if (!dialog.open) {
        dialog.showModal();
    }
    let answer;
    try {
        answer = await api.get(`/${kind}/${id}`, {lang: requestLanguage(),
                                                  signal: controller.signal});
    }
    catch (err) {
        if (err.name === "AbortError") {
            return;
        }
        $("detail-title").textContent = t(state.lang, "failed");
        replaceChildren($("detail-body"), h("p", {}, t(state.lang, "down")));
        dialog.dataset.state = "down";
        $("detail-title").focus();
        return;
    }
    if (answer.ok) {
        const [title, body] = kind === "experience"
            ? render.experienceDetail(answer.body, state.lang)
            : render.caseStudyDetail(answer.body, state.lang);
        $("detail-title").textContent = title;
        replaceChildren($("detail-body"), body);
        dialog.dataset.state = "ready";
    }
    else {
        // The problem's own words, in the page's language (the request
        // asked for it): "No case study has the id 'x'."
        const p = answer.problem || {};
        $("detail-title").textContent = p.title || String(answer.status);
        replaceChildren($("detail-body"), h("p", {class: "problem"}, p.detail || ""));
        dialog.dataset.state = "problem";
    }
    $("detail-title").focus();
}

function closeDetail() {
    if (DETAIL.test(location.hash)) {
        history.pushState(null, "", location.pathname + location.search);
    }
    const dialog = $("detail");
    if (dialog.open) {
        dialog.close();
    }
}

// ------------------------------------------------------------ wiring
function debounce(fn, ms) {
    let timer = null;
    return () => {
        clearTimeout(timer);
        timer = setTimeout(fn, ms);
    };
}

function start() {
    applyTexts();
    for (const button of document.querySelectorAll(".lang button")) {
        button.addEventListener("click", () => {
            storeChoice(button.dataset.lang);
            loadAll();
        });
    }
    $("print").addEventListener("click", () => window.print());
    $("banner-retry").addEventListener("click", () => {
        clearBanner();
        loadAll();
    });
    $("skills-form").addEventListener("submit", (event) => {
        event.preventDefault();
        searchSkills();
    });
    $("skills-q").addEventListener("input", debounce(searchSkills, 250));
    $("company").addEventListener("change", filterCompany);
    $("company-form").addEventListener("submit", (event) => event.preventDefault());
    $("detail-close").addEventListener("click", closeDetail);
    $("detail").addEventListener("close", () => {
        if (DETAIL.test(location.hash)) {
            history.pushState(null, "", location.pathname + location.search);
        }
        if (state.opener && document.contains(state.opener)) {
            state.opener.focus();
        }
        state.opener = null;
    });
    document.addEventListener("click", (event) => {
        const a = event.target.closest && event.target.closest("a[href^='#/']");
        if (a) {
            state.opener = a;
        }
    });
    window.addEventListener("hashchange", openFromHash);
    window.addEventListener("popstate", openFromHash);
    loadAll();
}

start();
