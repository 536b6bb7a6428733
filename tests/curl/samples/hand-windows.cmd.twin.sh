# The bash twin of hand-windows.cmd.curl.txt: "" inside quotes is one quote, \" is a quote, two
# backslashes before a quote are one, and a backslash stays a backslash unless a quote follows it.
curl 'https://api.example.com/v1/notes?tag=work' -X POST -H 'Content-Type: application/json' -H 'X-Quote: say "hi" to C:\temp\' --data-raw '{"title":"Q4 plan","dir":"C:\Users\ada"}'
