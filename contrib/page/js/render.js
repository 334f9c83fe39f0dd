// SPDX-License-Identifier: Apache-2.0
// One function per resource: the API's JSON in, elements out (textContent
// only, links through dom.link).

import {h, link, replaceChildren} from "./dom.js";
import {t} from "./i18n.js";

export function profile(body) {
    document.getElementById("name").textContent = body.name;
    document.getElementById("headline").textContent = body.headline;
    document.getElementById("summary").textContent = body.summary;
}

export function problemBox(problem, fallback) {
    const p = problem || {};
    return h("div", {class: "problem"},
             h("p", {class: "problem-title"}, p.title || fallback),
             p.detail ? h("p", {}, p.detail) : null,
             (p["invalid-params"] || []).map((ip) => h("p", {}, `${ip.name}: ${ip.reason}`)));
}

function emptyOr(list, build) {
    return list.length ? build(list) : h("p", {class: "muted"}, "—");
}

export function metrics(list) {
    return emptyOr(list, () => h("ul", {class: "metrics"}, list.map((m) =>
        h("li", {class: "metric", id: `metric-${m.id}`},
          h("p", {class: "metric-value"}, m.value),
          h("p", {class: "metric-label"}, m.label),
          h("p", {class: "metric-summary"}, m.summary)))));
}

function company(rec) {
    return rec.companyUrl ? link(rec.companyUrl, rec.company) : h("span", {}, rec.company);
}

export function experience(list, lang) {
    return emptyOr(list, () => h("ol", {class: "cards timeline"}, list.map((r) =>
        h("li", {class: "card", id: `experience-${r.id}`},
          h("h3", {}, r.role),
          h("p", {class: "meta"}, company(r), h("span", {class: "sep", "aria-hidden": "true"}, " · "),
            h("span", {class: "period"}, r.period)),
          h("p", {}, r.context),
          r.highlights.length ? h("ul", {class: "highlights"},
                                  r.highlights.map((x) => h("li", {}, x))) : null,
          h("p", {class: "more noprint"},
            h("a", {href: `#/experience/${r.id}`,
                    "aria-label": t(lang, "detailsOf", {name: r.role})},
              t(lang, "details")))))));
}

export function experienceDetail(r, lang) {
    return [r.role, [
        h("p", {class: "meta"}, company(r), " · ", r.period),
        h("h3", {}, t(lang, "context")),
        h("p", {}, r.context),
        r.highlights.length ? [h("h3", {}, t(lang, "highlights")),
                               h("ul", {class: "highlights"},
                                 r.highlights.map((x) => h("li", {}, x)))] : null,
    ]];
}

function caseStudyParts(c, lang) {
    return [
        h("h4", {}, t(lang, "context")), h("p", {}, c.context),
        h("h4", {}, t(lang, "problem")), h("p", {}, c.problem),
        h("h4", {}, t(lang, "intervention")), h("p", {}, c.intervention),
        h("h4", {}, t(lang, "result")), h("p", {}, c.result),
        c.resultItems.length ? h("ul", {class: "highlights"},
                                 c.resultItems.map((x) => h("li", {}, x))) : null,
    ];
}

/** The title twice: the full one, and mobileTitle for narrow screens
 *  (CSS shows one of them; the other is display:none, hidden from
 *  assistive technology too). */
function titles(c) {
    const short = c.mobileTitle || c.title;
    return [h("span", {class: "title-full"}, c.title),
            h("span", {class: "title-mobile"}, short)];
}

export function caseStudies(list, lang) {
    return emptyOr(list, () => h("ul", {class: "cards"}, list.map((c) =>
        h("li", {class: "card", id: `case-study-${c.id}`},
          h("h3", {}, titles(c)),
          h("p", {class: "meta"}, c.organization),
          h("p", {}, c.summary),
          h("div", {class: "printonly"}, caseStudyParts(c, lang)),
          h("p", {class: "more noprint"},
            h("a", {href: `#/case-studies/${c.id}`,
                    "aria-label": t(lang, "readCaseOf", {name: c.mobileTitle || c.title})},
              t(lang, "readCase")))))));
}

export function caseStudyDetail(c, lang) {
    return [c.title, [
        h("p", {class: "meta"}, c.organization),
        h("p", {class: "lead"}, c.summary),
        caseStudyParts(c, lang),
    ]];
}

export function skills(groups) {
    return h("div", {class: "skill-groups"}, groups.map((g) =>
        h("div", {class: "skill-group"},
          h("h3", {}, g.title),
          g.summary ? h("p", {}, g.summary) : null,
          h("ul", {class: "chips"}, g.skills.map((s) => h("li", {}, s))))));
}

export function education(list) {
    return emptyOr(list, () => h("ul", {class: "cards"}, list.map((e) =>
        h("li", {class: "card"},
          h("h3", {}, e.degree),
          h("p", {class: "meta"}, e.institutionUrl ? link(e.institutionUrl, e.institution)
                                                   : e.institution),
          h("p", {}, e.credential)))));
}

export function contact(body, lang) {
    return [
        h("ul", {class: "contacts"}, body.contacts.map((c) =>
            h("li", {class: `contact contact-${c.kind}`},
              h("span", {class: "contact-label"}, c.label), " ",
              link(c.url, c.text)))),
        body.links.length ? [
            h("h3", {}, t(lang, "links")),
            h("ul", {class: "links"}, body.links.map((l) =>
                h("li", {class: `link link-${l.kind}`}, link(l.url, l.text)))),
        ] : null,
    ];
}

export {replaceChildren};
