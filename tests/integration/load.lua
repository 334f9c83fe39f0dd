-- SPDX-License-Identifier: Apache-2.0
-- wrk script of the load and reload tests (test_load.py writes the cases
-- file and reads the RESULT line).
--
--   wrk ... -s load.lua URL -- CASES_FILE
--
-- CASES_FILE is a Lua chunk returning a list of request kinds:
--   {method=, path=, headers={...}, origin=,
--    expect={{status=, etag=, lm=, lang=, body=, v=}, ...}}
-- Every kind has an Origin of its own that the server (ProfileCORSOrigins
-- lists them all) echoes in Access-Control-Allow-Origin, on every status:
-- that is how a response, whichever connection it came on, is matched to
-- its request.  A response is right when its status, ETag, Last-Modified,
-- Content-Language and body all equal one of the kind's expected answers
-- (an absent header equals an absent field); `v` names the data version
-- that answer belongs to.  Threads keep plain counters (wrk copies scalars
-- between its Lua states safely) and done() prints one RESULT line.

local threads = {}

function setup(thread)
   table.insert(threads, thread)
   thread:set("tid", #threads)
end

local kinds, reqs, by_origin
local next_kind = 0

function init(args)
   kinds = dofile(args[1])
   reqs, by_origin = {}, {}
   for k, c in ipairs(kinds) do
      c.headers["Origin"] = c.origin
      reqs[k] = wrk.format(c.method, c.path, c.headers)
      by_origin[c.origin] = c
   end
   -- Threads start at different kinds, then take them in turn.
   next_kind = ((tid or 1) - 1) * math.floor(#reqs / 2)
   responses, mismatches, unidentified = 0, 0, 0
   v1, v2, vboth = 0, 0, 0
   samples, nsamples = "", 0
   for _, s in ipairs({200, 304, 400, 404, 405, 412, 500}) do
      _G["st" .. s] = 0
   end
   st_other = 0
end

function request()
   next_kind = next_kind % #reqs + 1
   return reqs[next_kind]
end

local function sample(what, status, headers, body)
   if nsamples < 5 then
      nsamples = nsamples + 1
      samples = samples .. string.format("%s: status %d, origin %s, etag %s,"
         .. " lm %s, lang %s, body %q\n", what, status,
         tostring(headers["Access-Control-Allow-Origin"]),
         tostring(headers["ETag"]), tostring(headers["Last-Modified"]),
         tostring(headers["Content-Language"]), string.sub(body, 1, 200))
   end
end

function response(status, headers, body)
   responses = responses + 1
   local key = "st" .. status
   if _G[key] ~= nil then
      _G[key] = _G[key] + 1
   else
      st_other = st_other + 1
   end
   local c = by_origin[headers["Access-Control-Allow-Origin"]]
   if c == nil then
      unidentified = unidentified + 1
      sample("unidentified", status, headers, body)
      return
   end
   for _, e in ipairs(c.expect) do
      if status == e.status and headers["ETag"] == e.etag
            and headers["Last-Modified"] == e.lm
            and headers["Content-Language"] == e.lang
            and body == e.body then
         if e.v == 1 then v1 = v1 + 1
         elseif e.v == 2 then v2 = v2 + 1
         else vboth = vboth + 1 end
         return
      end
   end
   mismatches = mismatches + 1
   sample("mismatch " .. c.method .. " " .. c.path, status, headers, body)
end

function done(summary, latency, requests)
   local names = {"responses", "mismatches", "unidentified", "v1", "v2",
                  "vboth", "st200", "st304", "st400", "st404", "st405",
                  "st412", "st500", "st_other"}
   local total = {}
   for _, n in ipairs(names) do total[n] = 0 end
   for _, t in ipairs(threads) do
      for _, n in ipairs(names) do
         total[n] = total[n] + (t:get(n) or 0)
      end
      local s = t:get("samples")
      if s and s ~= "" then io.write("SAMPLE ", s) end
   end
   local e = summary.errors
   local out = {string.format('"requests":%d,"duration_us":%d,"bytes":%d,'
      .. '"connect":%d,"read":%d,"write":%d,"timeout":%d,'
      .. '"latency_p50_us":%d,"latency_p99_us":%d,"latency_max_us":%d',
      summary.requests, summary.duration, summary.bytes, e.connect, e.read,
      e.write, e.timeout, latency:percentile(50), latency:percentile(99),
      latency.max)}
   for _, n in ipairs(names) do
      out[#out + 1] = string.format('"%s":%d', n, total[n])
   end
   io.write("RESULT {", table.concat(out, ","), "}\n")
end
