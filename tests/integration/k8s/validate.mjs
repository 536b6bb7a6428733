// Validates deploy/k8s offline, as `kubectl apply -k` would see it: renders the kustomization
// (the subset it uses: resources, configMapGenerator with files and envs, generatorOptions),
// checks each object against Kubernetes' own schemas (kubernetes-models: types, required
// fields, enums) and checks what the shards need: an Indexed Job that never reruns a pod, N the
// same in completions, parallelism and SHARDS, the ConfigMaps it names. With kubectl on PATH,
// the rendering is also compared with `kubectl kustomize`'s.
//   node validate.mjs DIR     (exit 1, naming each problem, when DIR is not fit to apply)
import { spawnSync } from "node:child_process";
import { parseAllDocuments } from "yaml";
import { render } from "./render.mjs";
import { Job } from "kubernetes-models/batch/v1/Job";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";

const dir = process.argv[2];
const problems = [];
const problem = (text) => problems.push(text);
const models = { Job, ConfigMap };

/// The object's JSON with its keys sorted, to compare renderings.
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

function checkSchemas(objects) {
  for (const object of objects) {
    const Model = models[object.kind];
    if (!Model) {
      problem(`${object.kind} ${object.metadata?.name}: no schema here for this kind`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problem(`${object.kind} ${object.metadata?.name}: ${error.message}`);
    }
  }
}

function checkJob(objects) {
  const jobs = objects.filter((object) => object.kind === "Job");
  if (jobs.length !== 1) return problem(`expected one Job, found ${jobs.length}`);
  const spec = jobs[0].spec ?? {};
  const pod = spec.template?.spec ?? {};
  const container = (pod.containers ?? [])[0] ?? {};
  const shards = (container.env ?? []).find((variable) => variable.name === "SHARDS")?.value;
  if (spec.completionMode !== "Indexed") problem("the Job's completionMode must be Indexed (JOB_COMPLETION_INDEX)");
  if (spec.backoffLimit !== 0) problem("the Job's backoffLimit must be 0: a shard run again counts twice");
  if (pod.restartPolicy !== "Never") problem("the pods' restartPolicy must be Never: a shard run again counts twice");
  if (!(spec.completions === spec.parallelism && String(spec.completions) === shards)) {
    problem(`completions (${spec.completions}), parallelism (${spec.parallelism}) and SHARDS (${shards}) must be one N`);
  }
  if (!pod.affinity?.podAntiAffinity) problem("the pods need a podAntiAffinity to spread the shards over nodes");
  const maps = new Set(objects.filter((object) => object.kind === "ConfigMap").map((map) => map.metadata.name));
  const named = [
    ...(pod.volumes ?? []).map((volume) => volume.configMap?.name),
    ...(container.envFrom ?? []).map((source) => source.configMapRef?.name),
  ].filter(Boolean);
  for (const name of named) if (!maps.has(name)) problem(`the Job names ConfigMap ${name}, which is not generated`);
  const load = objects.find((object) => object.kind === "ConfigMap" && object.metadata.name === "stampede-load");
  for (const key of ["args.txt", "shard.sh"]) if (!load?.data?.[key]) problem(`ConfigMap stampede-load has no ${key}`);
}

/// kubectl's own rendering, where there is a kubectl, must be ours.
function checkWithKubectl(objects) {
  const kubectl = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
  if (kubectl.error) return console.log("validate: no kubectl here: rendering checked by this script alone");
  if (kubectl.status !== 0) return problem(`kubectl kustomize failed: ${kubectl.stderr.trim()}`);
  const theirs = parseAllDocuments(kubectl.stdout).map((doc) => JSON.stringify(canonical(doc.toJSON())));
  const ours = objects.map((object) => JSON.stringify(canonical(object)));
  if (JSON.stringify(theirs.sort()) !== JSON.stringify(ours.sort())) problem("kubectl kustomize renders something else than validate.mjs");
  else console.log("validate: kubectl kustomize renders the same objects");
}

const objects = render(dir, problem);
checkSchemas(objects);
checkJob(objects);
checkWithKubectl(objects);
for (const text of problems) console.error(`validate: ${dir}: ${text}`);
if (problems.length === 0) {
  console.log(`validate: ${dir}: ${objects.map((object) => `${object.kind} ${object.metadata.name}`).join(", ")}: valid`);
}
process.exit(problems.length === 0 ? 0 : 1);
