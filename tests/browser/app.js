// SPDX-License-Identifier: Apache-2.0
// Calls the API of another origin with fetch() the way a web page would, and
// writes what it could read into the page: as JSON in #results for
// tests/integration/test_browser.py, and as a table for people.
//
// Query parameters: api (the API base, CORS origins "*"), listed (a base
// whose ProfileCORSOrigins lists this page's origin), denied (a base whose
// list does not); only=language makes one request with the browser's own
// Accept-Language and nothing else.
"use strict";

const params = new URLSearchParams(location.search);
const API = params.get("api");
const LISTED = params.get("listed");
const DENIED = params.get("denied");
const results = [];

function summary(rec) {
  if (rec.error) return rec.error;
  const b = rec.body;
  if (b === undefined) return rec.text === "" ? "(no body)" : rec.text;
  if (Array.isArray(b)) {
    const first = b.length ? (b[0].id || b[0].title || b[0].degree ||
                              b[0].label || "") : "";
    return b.length + " item(s)" + (first ? ": " + first + ", …" : "");
  }
  if (b.title && b.status) return b.status + " " + b.title + " — " + b.detail;
  return b.name || b.role || b.title ||
         (b.contacts ? b.contacts.length + " contacts, " + b.links.length +
                       " links" : JSON.stringify(b).slice(0, 60));
}

function show(rec) {
  const tr = document.createElement("tr");
  const base = rec.url.startsWith(API) ? API : rec.url.startsWith(LISTED) ?
    LISTED : DENIED;
  const where = base === API ? "" : base === LISTED ? "(listed) " : "(not listed) ";
  const sent = Object.entries(rec.sent || {}).map(
    ([k, v]) => (k === "Accept-Language" ? "AL" : k === "If-None-Match" ?
                 "INM" : k) + ": " + v).join("; ");
  const cells = [rec.name,
                 rec.method + " " + where + decodeURI(rec.url.slice(base.length)),
                 sent, rec.error ? "error" : String(rec.status),
                 rec.headers ? rec.headers["content-language"] || "" : "",
                 rec.headers ? rec.headers.etag || "" : "", summary(rec)];
  cells.forEach((text, i) => {
    const td = document.createElement("td");
    if (i === 1 || i === 2 || i === 5) {
      const c = document.createElement("code");
      c.textContent = text;
      td.appendChild(c);
    } else {
      td.textContent = text;
    }
    td.title = text;
    if (i === 3) td.className = rec.error ? "err" : "s" + String(rec.status)[0];
    if (i === 6 && rec.error) td.className = "err";
    tr.appendChild(td);
  });
  document.getElementById("rows").appendChild(tr);
}

// One fetch; records the status, the response headers a cross-origin page
// may read, and the body.
async function call(name, url, init) {
  init = init || {};
  const rec = { name: name, url: url, method: init.method || "GET" };
  if (init.headers) rec.sent = init.headers;
  try {
    const r = await fetch(url, init);
    rec.status = r.status;
    rec.headers = {};
    for (const n of ["etag", "content-language", "content-type",
                     "content-length", "cache-control", "last-modified",
                     "vary", "x-content-type-options"]) {
      const v = r.headers.get(n);
      if (v !== null) rec.headers[n] = v;
    }
    rec.text = await r.text();
    if (rec.text !== "") {
      try { rec.body = JSON.parse(rec.text); }
      catch (e) { rec.parseError = String(e); }
    }
  } catch (e) {
    rec.error = e.name + ": " + e.message;
  }
  results.push(rec);
  show(rec);
  return rec;
}

const noStore = (headers, more) =>
  Object.assign({ cache: "no-store", headers: headers || {} }, more || {});

async function run() {
  document.getElementById("where").textContent =
    "page " + location.origin + " → API " + API;

  if (params.get("only") === "language") {
    await call("browser language", API + "/profile", { cache: "no-store" });
    return finish();
  }

  // Every route in both languages, Accept-Language set by the page.
  for (const lang of ["en", "es"]) {
    const al = { "Accept-Language": lang };
    for (const path of ["/profile", "/skills", "/experience", "/education",
                        "/contact", "/case-studies", "/metrics"]) {
      const rec = await call("route " + lang, API + path, noStore(al));
      if (path === "/experience" || path === "/case-studies") {
        for (const item of rec.body || []) {
          await call("route " + lang, API + path + "/" +
                     encodeURIComponent(item.id), noStore(al));
        }
      }
    }
  }

  // The browser's own Accept-Language, nothing set by the page.
  await call("browser language", API + "/profile", { cache: "no-store" });

  // If-None-Match set by the page (not safelisted: a preflight first);
  // with cache "no-store" the page sees the 304 itself.
  const en = await call("etag en", API + "/experience",
                        noStore({ "Accept-Language": "en" }));
  await call("304", API + "/experience",
             noStore({ "Accept-Language": "en", "If-None-Match": en.headers.etag }));
  await call("en etag, es asked", API + "/experience",
             noStore({ "Accept-Language": "es", "If-None-Match": en.headers.etag }));

  // The browser's HTTP cache revalidating on its own: the page gets 200
  // and the stored body; the server saw If-None-Match and answered 304.
  const again = { cache: "no-cache", headers: { "Accept-Language": "es" } };
  await call("cache: fill", API + "/metrics", again);
  await call("cache: revalidate", API + "/metrics", again);

  await call("HEAD", API + "/contact", noStore({}, { method: "HEAD" }));
  await call("filter", API + "/experience?company=" +
             encodeURIComponent("INGENIERÍA"), noStore());

  // Problem bodies the page can read.
  await call("404 path", API + "/nope", noStore({ "Accept-Language": "es" }));
  await call("404 id", API + "/case-studies/nope", noStore());
  await call("404 problem+json", API + "/nope",
             noStore({ "Accept": "application/problem+json" }));
  await call("400", API + "/skills?q=", noStore({ "Accept-Language": "es" }));
  // A method the preflight does not allow never leaves the browser.
  await call("DELETE", API + "/profile", noStore({}, { method: "DELETE" }));

  // ProfileCORSOrigins: listed origin reads, other origins cannot.
  const listed = await call("listed origin", LISTED + "/profile", noStore());
  await call("listed origin 304", LISTED + "/profile",
             noStore({ "If-None-Match": listed.headers.etag }));
  await call("origin not listed", DENIED + "/profile", noStore());
  finish();
}

function finish() {
  document.getElementById("results").textContent =
    JSON.stringify({ done: true, origin: location.origin, results: results });
}

run().catch(e => {
  document.getElementById("results").textContent =
    JSON.stringify({ done: false, error: String(e), results: results });
});
