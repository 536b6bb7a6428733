# The bash twin of chrome-post.cmd.curl.txt. Chrome doubles every backslash, but the C runtime
# keeps doubled backslashes that precede no quote, so curl.exe receives C:\\temp.
curl 'https://app.example.com/api/comments' \
  -H 'accept: application/json' \
  -H 'content-type: application/json' \
  -b 'session=8f14e45f; consent=yes' \
  -H 'origin: https://app.example.com' \
  -H 'user-agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36' \
  --data-raw $'{"text":"50% off & free shipping!","path":"C:\\\\temp","lines":"a\nb"}' \
  --compressed
