// The pods an Indexed Job of deploy/k8s would start, as files `podman kube play` takes: pod-I.yaml
// for each shard (the Job's pod template, JOB_COMPLETION_INDEX set as Kubernetes sets it) and
// each ConfigMap, with this test's load, image, N and start. Podman has no Jobs; the pods share
// the host's network here (the template's port-range sysctl is not allowed there, so it is left
// out) to reach a target on loopback.
//   node pods.mjs DEPLOY_DIR OUT_DIR IMAGE [SHARDS START_AT RUN_ID ARGS_FILE]
// Without the last four, the kustomization's own: N from the Job, start.env's, args.txt. Prints
// each pod's name and index, a line each.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { render } from "./render.mjs";

const [dir, out, image, givenShards, startAt, runId, argsFile] = process.argv.slice(2);
const objects = render(dir, (text) => {
  throw new Error(text);
});
for (const map of objects.filter((object) => object.kind === "ConfigMap")) {
  if (argsFile && map.metadata.name === "stampede-load") map.data["args.txt"] = readFileSync(argsFile, "utf8");
  if (argsFile && map.metadata.name === "stampede-start") Object.assign(map.data, { START_AT: startAt, RUN_ID: runId });
  writeFileSync(join(out, `${map.metadata.name}.yaml`), stringify(map));
}
const job = objects.find((object) => object.kind === "Job");
const shards = givenShards ?? String(job.spec.completions);
// Pods named after the run, so that runs do not collide: `kube play` keeps a name until removed.
const ownRun = objects.find((object) => object.metadata.name === "stampede-start").data.RUN_ID;
const prefix = runId ?? (ownRun || "stampede");
for (let index = 0; index < Number(shards); index++) {
  const spec = structuredClone(job.spec.template.spec);
  const container = spec.containers[0];
  container.image = image;
  container.env = container.env.map((variable) =>
    variable.name === "SHARDS" ? { name: "SHARDS", value: shards } : variable,
  );
  container.env.push({ name: "JOB_COMPLETION_INDEX", value: String(index) });
  delete spec.securityContext;
  spec.hostNetwork = true;
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: `${prefix}-${index}`, labels: job.spec.template.metadata.labels },
    spec,
  };
  writeFileSync(join(out, `pod-${index}.yaml`), stringify(pod));
  console.log(`${prefix}-${index} ${index}`);
}
