// SPDX-License-Identifier: Apache-2.0
// mod_profile's page: enhancements to the HTML the module renders, which
// is complete without this file (mod_profile/profile_page.c).  A company
// filter, a skills search, case studies in a dialog without a reload, and
// the remembered language choice.  No imports, no third-party request.

const WORDS = {
    en: {
        company: "Company",
        allCompanies: "All companies",
        roles: (n, c) => `${n} ${n === 1 ? "role" : "roles"}` + (c ? ` at ${c}` : ""),
        search: "Search skills",
        skills: (n) => n === 0 ? "No skill matches"
            : `${n} ${n === 1 ? "skill matches" : "skills match"}`,
        close: "Close",
        loading: "Loading…",
        failed: "This case study could not be loaded.",
        openPage: "Open it as a page",
    },
    es: {
        company: "Empresa",
        allCompanies: "Todas las empresas",
        roles: (n, c) => `${n} ${n === 1 ? "puesto" : "puestos"}` + (c ? ` en ${c}` : ""),
        search: "Buscar competencias",
        skills: (n) => n === 0 ? "Ninguna competencia coincide"
            : `${n} ${n === 1 ? "competencia coincide" : "competencias coinciden"}`,
        close: "Cerrar",
        loading: "Cargando…",
        failed: "No se ha podido cargar este caso de estudio.",
        openPage: "Abrirlo como página",
    },
};
const LANG = document.documentElement.lang.split("-")[0].toLowerCase();
const W = WORDS[LANG] || WORDS.en;
const WATTR = WORDS[LANG] ? null : "en";    // lang= of our words, if not the page's
const STORE_KEY = "mod_profile.page.lang";

function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
        if (v !== null && v !== undefined) {
            el.setAttribute(k, v);
        }
    }
    el.append(...children);
    return el;
}

// An element holding this file's words.
function ours(el) {
    if (WATTR) {
        el.lang = WATTR;
    }
    return el;
}

// Case-insensitive, accent-sensitive, as the API matches: NFC and full
// case folding (upper then lower folds "ß" to "ss").
const fold = (s) => s.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");

// ------------------------------------------------------------ company filter
function companyFilter(section) {
    const list = section.querySelector("ol.roles");
    const roles = [...section.querySelectorAll("li.role[data-company]")];
    if (!list || roles.length === 0) {
        return;
    }
    const companies = [...new Set(roles.map((r) => r.dataset.company))];
    const select = h("select", {id: "company-filter"},
                     ours(h("option", {value: ""}, W.allCompanies)),
                     ...companies.map((c) => h("option", {value: c}, c)));
    const status = ours(h("p", {class: "filter-status", role: "status"}));
    select.addEventListener("change", () => {
        const c = select.value;
        let n = 0;
        for (const r of roles) {
            r.hidden = c !== "" && r.dataset.company !== c;
            n += !r.hidden;
        }
        status.textContent = W.roles(n, c);
    });
    list.before(h("div", {class: "filter"},
                  ours(h("label", {for: "company-filter"}, W.company)), select, status));
}

// ------------------------------------------------------------ skills search
function skillsSearch(section) {
    const groups = [...section.querySelectorAll(".skill-group")];
    const first = section.querySelector(".skill-groups");
    if (!first || groups.length === 0) {
        return;
    }
    const input = h("input", {id: "skills-q", type: "search", autocomplete: "off",
                              spellcheck: "false"});
    const status = ours(h("p", {class: "filter-status", role: "status"}));
    input.addEventListener("input", () => {
        const q = fold(input.value.trim());
        let n = 0;
        for (const g of groups) {
            const title = g.querySelector("h3");
            let any = q !== "" && title !== null && fold(title.textContent).includes(q);
            for (const chip of g.querySelectorAll("ul.chips > li")) {
                const m = q !== "" && fold(chip.textContent).includes(q);
                chip.classList.toggle("match", m);
                n += m;
                any ||= m;
            }
            g.hidden = q !== "" && !any;
        }
        status.textContent = q === "" ? "" : W.skills(n);
    });
    first.before(h("div", {class: "filter", role: "search"},
                   ours(h("label", {for: "skills-q"}, W.search)), input, status));
}

// ------------------------------------------------------------ case-study dialog
const detail = {
    dialog: null,
    body: null,
    opener: null,       // the link to give focus back to
    pushed: false,      // the current history entry is the dialog's, ours
    abort: null,
    title: document.title,
    cache: new Map(),
};

function makeDialog() {
    const close = ours(h("button", {type: "button", class: "dialog-close"}, W.close));
    detail.body = h("div", {class: "dialog-body"});
    detail.dialog = h("dialog", {class: "detail-dialog",
                                 "aria-labelledby": "detail-dialog-h"},
                      h("div", {class: "dialog-bar"}, close), detail.body);
    close.addEventListener("click", () => detail.dialog.close());
    detail.dialog.addEventListener("close", () => {
        detail.abort?.abort();
        document.title = detail.title;
        if (detail.pushed) {
            detail.pushed = false;
            history.back();
        }
        const o = detail.opener;
        detail.opener = null;
        if (o && o.isConnected) {
            o.focus();
        }
    });
    document.body.append(detail.dialog);
}

async function fetchArticle(url, signal) {
    if (detail.cache.has(url)) {
        return detail.cache.get(url);
    }
    const res = await fetch(url, {signal, credentials: "same-origin",
                                  headers: {Accept: "text/html"}});
    if (!res.ok) {
        throw new Error(String(res.status));
    }
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const article = doc.querySelector("main article");
    if (!article) {
        throw new Error("no article");
    }
    const found = {article, title: doc.title};
    detail.cache.set(url, found);
    return found;
}

function show(...nodes) {
    detail.body.replaceChildren(...nodes);
}

async function openDetail(url, opener, push) {
    if (!detail.dialog) {
        makeDialog();
    }
    detail.abort?.abort();
    const abort = detail.abort = new AbortController();
    detail.opener = opener;
    if (push) {
        history.pushState({detail: url}, "", url);
        detail.pushed = true;
    }
    show(ours(h("p", {id: "detail-dialog-h", tabindex: "-1"}, W.loading)));
    if (!detail.dialog.open) {
        detail.dialog.showModal();
    }
    detail.body.firstChild.focus();
    try {
        const found = await fetchArticle(url, abort.signal);
        if (abort.signal.aborted) {
            return;
        }
        const article = document.importNode(found.article, true);
        article.removeAttribute("id");      // the card has it
        const heading = article.querySelector("h1");
        if (heading) {
            heading.id = "detail-dialog-h";
            heading.tabIndex = -1;
        }
        show(article);
        document.title = found.title;
        (heading || detail.dialog.querySelector(".dialog-close")).focus();
    }
    catch (e) {
        if (abort.signal.aborted) {
            return;
        }
        show(ours(h("p", {class: "dialog-error", id: "detail-dialog-h", tabindex: "-1"},
                    W.failed)),
             ours(h("p", {}, h("a", {href: url}, W.openPage))));
        detail.body.firstChild.focus();
    }
}

function caseStudies() {
    document.addEventListener("click", (e) => {
        const link = e.target.closest?.("a.case-link[data-detail]");
        if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey
            || e.ctrlKey || e.shiftKey || e.altKey
            || new URL(link.href).origin !== location.origin) {
            return;
        }
        e.preventDefault();
        openDetail(link.href, link, true);
    });
    window.addEventListener("popstate", (e) => {
        const url = e.state && e.state.detail;
        if (url) {
            // Forward to a study opened here.
            const link = [...document.querySelectorAll("a.case-link[data-detail]")]
                .find((a) => a.href === url);
            openDetail(url, link || null, false);
            detail.pushed = true;
        }
        else if (detail.dialog && detail.dialog.open) {
            detail.pushed = false;      // Back: the entry is already gone
            detail.dialog.close();
        }
    });
}

// ------------------------------------------------------------ language
function language() {
    for (const a of document.querySelectorAll("nav.langs a[hreflang]")) {
        a.addEventListener("click", () => {
            try {
                localStorage.setItem(STORE_KEY, a.hreflang);
            }
            catch {
                // storage disabled: the choice lasts for this page
            }
        });
    }
    const base = document.querySelector('link[rel="alternate"][hreflang="x-default"]');
    if (!base || new URL(base.href).pathname !== location.pathname) {
        return false;
    }
    let want = null;
    try {
        want = localStorage.getItem(STORE_KEY);
    }
    catch {
        return false;
    }
    if (!want || want === document.documentElement.lang) {
        return false;
    }
    const alt = [...document.querySelectorAll('link[rel="alternate"][hreflang]')]
        .find((l) => l.hreflang === want);
    if (alt) {
        location.replace(alt.href + location.hash);
        return true;
    }
    return false;
}

if (!language()) {
    const exp = document.querySelector('section#experience[data-filter="company"]');
    const sk = document.querySelector('section#skills[data-filter="search"]');
    if (exp) {
        companyFilter(exp);
    }
    if (sk) {
        skillsSearch(sk);
    }
    if (document.querySelector("a.case-link[data-detail]")) {
        caseStudies();
    }
}
