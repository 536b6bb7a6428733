# The bash twin of chrome-get.cmd.curl.txt (what cmd.exe hands to curl.exe), for real curl here.
curl 'https://shop.example.com/api/v2/search?q=caf%C3%A9&limit=20&fields=id,name' \
  -H 'accept: application/json, text/plain, */*' \
  -H 'accept-language: en-US,en;q=0.9' \
  -b 'session=abc123; theme=dark' \
  -H 'sec-ch-ua: "Google Chrome";v="119", "Chromium";v="119"' \
  -H 'sec-ch-ua-platform: "Windows"' \
  -H 'user-agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36' \
  --compressed
