# The HAR recording site: a page with a stylesheet, a font, a script, an image and a favicon, and a
# small JSON API the script calls in order (log in, list items, search).
# shellcheck shell=bash
#
# Source after tests/integration/lib.sh:
#   source "$HERE/har/site.sh"
#   start_nginx "$TEST_TMP/nginx" "$HAR_NGINX_EXTRA"
#   har_site "$TEST_TMP/nginx"            (before or after start_nginx: the page is not html/index.html)
# Then http://127.0.0.1:$HTTP_PORT/index.html runs the flow and sets document.title to "done" (or to
# "error: ..." when a call failed). Every request is in $ACCESS_LOG (lib.sh's line); each /api/ call
# is also a JSON line in $HAR_LOG (nginx's `har` format in lib.sh):
#   {"status":200,"method":"POST","uri":"/api/login","body":"{\"user\":\"ada\",...}","cookie":"theme=dark",
#    "x_trace":"","content_type":"application/json","set_cookie":"sid=<request_id>; Path=/",
#    "request_id":"<request_id>","connection":3}
# The API answers (nginx proxies /api/X to its own /echo/api/X so that it reads, and logs, the body):
#   POST /api/login    200 {"ok":true}                      Set-Cookie: sid=<its $request_id>; Path=/
#   GET  /api/items    200 {"page":2,"items":[...]}
#   POST /api/search   200 {"results":[...]}

# HAR_NGINX_EXTRA: start_nginx's 2nd argument. Paths are relative to nginx's prefix (start_nginx's DIR).
# shellcheck disable=SC2016,SC2034  # nginx's variables, not the shell's; for the scripts
HAR_NGINX_EXTRA='
        location = /index.html { root html/site; }
        location /static/ {
            types {
                text/css css;
                text/javascript js;
                image/png png;
                font/woff2 woff2;
                image/x-icon ico;
            }
        }
        location = /api/login {
            access_log access.log stampede;
            access_log har.log har;
            add_header Set-Cookie "sid=$request_id; Path=/";
            proxy_pass http://127.0.0.1:$server_port/echo$request_uri;
        }
        location /api/ {
            access_log access.log stampede;
            access_log har.log har;
            proxy_pass http://127.0.0.1:$server_port/echo$request_uri;
        }
        location /echo/ {
            access_log off;
            allow 127.0.0.1;
            deny all;
            default_type application/json;
            location = /echo/api/login { return 200 "{\"ok\":true}\n"; }
            location = /echo/api/items {
                return 200 "{\"page\":2,\"items\":[{\"id\":21,\"name\":\"red boots\"},{\"id\":22,\"name\":\"blue hat\"}]}\n";
            }
            location = /echo/api/search { return 200 "{\"results\":[{\"id\":21,\"name\":\"red boots\",\"size\":42}]}\n"; }
            return 404;
        }'

# har_site DIR: writes the site under DIR/html (the page in DIR/html/site/index.html, served as
# /index.html; the assets in DIR/html/static/) and sets HAR_LOG=DIR/har.log.
har_site() {
  local dir=$1
  # shellcheck disable=SC2034  # for the scripts
  HAR_LOG=$dir/har.log
  mkdir -p "$dir/html/site" "$dir/html/static"
  cat >"$dir/html/site/index.html" <<'EOF'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>stampede HAR site</title>
<link rel="icon" href="/static/favicon.ico">
<link rel="stylesheet" href="/static/style.css">
<script src="/static/app.js" defer></script>
</head>
<body>
<h1>Red boots shop</h1>
<p><img src="/static/logo.png" alt="logo" width="16" height="16"> Log in, list the items, search.</p>
</body>
</html>
EOF
  cat >"$dir/html/static/style.css" <<'EOF'
@font-face {
  font-family: "Stampede Sans";
  src: url("/static/font.woff2") format("woff2");
}
body { font-family: "Stampede Sans", sans-serif; margin: 2em; }
h1 { color: #a02020; }
EOF
  cat >"$dir/html/static/app.js" <<'EOF'
// The recorded flow, one call after the other: log in, list items, search; then title "done".
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new Error(url + ' answered ' + response.status);
  return response.json();
}

async function flow() {
  await call('/api/login', {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({user: 'ada', password: 's3cret'}),
  });
  await pause(400);
  await call('/api/items?page=2&sort=new', {headers: {'X-Trace': 't-1'}});
  await pause(600);
  await call('/api/search', {
    method: 'POST',
    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
    body: 'q=red+boots&size=42',
  });
  document.title = 'done';
}

window.addEventListener('load', () => {
  flow().catch((error) => { document.title = 'error: ' + error.message; });
});
EOF
  # A real 16x16 PNG, the same PNG as a favicon (an ICO may hold a PNG), and a stand-in WOFF2 (its
  # signature, then padding: Chrome fetches it for the visible text, then fails to decode it).
  "$PYTHON" - "$dir/html/static" <<'EOF'
import struct, sys, zlib
out = sys.argv[1]
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
raw = b""
for y in range(16):
    raw += b"\x00" + b"".join(bytes((160, 32, 32)) if (x // 4 + y // 4) % 2 else bytes((250, 240, 230))
                              for x in range(16))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
open(out + "/logo.png", "wb").write(png)
ico = struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", 16, 16, 0, 0, 1, 32, len(png), 22) + png
open(out + "/favicon.ico", "wb").write(ico)
open(out + "/font.woff2", "wb").write(b"wOF2\x00\x01\x00\x00" + b"stampede HAR site stand-in font\n")
EOF
}
