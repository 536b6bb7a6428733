// Decodes the latency histograms of stampede's saved runs with HdrHistogram's JavaScript port
// and prints what HdrHistogram reads in them, for saved_run_test.sh to hold against stampede.
// Usage: node hdr_check.js FILE...  ->  {"files": [{total, seconds}], "added": totals added}
"use strict";
const fs = require("fs");
const hdr = require("hdr-histogram-js");

const decode = (text) => hdr.decodeFromCompressedBase64(text, 64, false);

// What both tools report: counts, extremes and percentiles, in nanoseconds.
function figures(histogram) {
  const at = (q) => histogram.getValueAtPercentile(q);
  return {
    count: histogram.totalCount,
    min: histogram.minNonZeroValue,
    max: histogram.maxValue,
    p50: at(50),
    p90: at(90),
    p99: at(99),
  };
}

function added(histograms) {
  const sum = hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1,
                          highestTrackableValue: 2 ** 44 - 1, numberOfSignificantValueDigits: 2 });
  for (const histogram of histograms) sum.add(histogram);
  return sum;
}

const files = [];
const totals = [];
for (const path of process.argv.slice(2)) {
  const run = JSON.parse(fs.readFileSync(path, "utf8")).run;
  const total = decode(run.total.latency.hdr);
  totals.push(total);
  const seconds = run.per_second.filter((s) => s.latency !== null).map((s) => decode(s.latency.hdr));
  files.push({ total: figures(total), seconds: figures(added(seconds)) });
}
process.stdout.write(JSON.stringify({ files, added: figures(added(totals)) }) + "\n");
