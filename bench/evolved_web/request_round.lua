-- wrk script: request every URL of one round of an evolved web, in turn.
--   topicrawl web serve --dir E --round K --port P --tls-port Q
--   wrk -t2 -c32 -d20s -s bench/evolved_web/request_round.lua http://127.0.0.1:P/ -- E/truth/round-K.tsv
-- The truth file lists the round's pages (200) and its gone pages (404/410:
-- wrk counts them as "Non-2xx or 3xx responses"). Each thread starts at its
-- own offset and walks the list cyclically, with the page's Host header.
local urls = {}

function init(args)
  local path = args[1] or error("usage: ... -- E/truth/round-K.tsv")
  for line in io.lines(path) do
    local host, p = line:match("^http://([^/]+)(/[^\t]*)\t")
    if host then urls[#urls + 1] = wrk.format("GET", p, { Host = host }) end
  end
  if #urls == 0 then error("no URL in " .. path) end
  idx = math.random(#urls)
end

function request()
  idx = idx % #urls + 1
  return urls[idx]
end
