// render(): deploy/k8s's kustomization as kustomize renders it, for the subset it uses
// (resources, configMapGenerator with files and envs, generatorOptions); what it does not
// render is a problem named through `problem`.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parse, parseAllDocuments } from "yaml";

/// The kustomization's objects, as kustomize renders them.
export function render(dir, problem) {
  const kustomization = parse(readFileSync(join(dir, "kustomization.yaml"), "utf8"));
  const known = ["apiVersion", "kind", "resources", "configMapGenerator", "generatorOptions"];
  for (const key of Object.keys(kustomization)) {
    if (!known.includes(key)) problem(`kustomization.yaml: ${key} is not rendered here (teach validate.mjs)`);
  }
  if (kustomization.generatorOptions?.disableNameSuffixHash !== true) {
    problem("kustomization.yaml: generatorOptions.disableNameSuffixHash must be true (job.yaml names the ConfigMaps)");
  }
  const objects = [];
  for (const file of kustomization.resources ?? []) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), "utf8"))) objects.push(doc.toJSON());
  }
  for (const generator of kustomization.configMapGenerator ?? []) {
    const data = {};
    for (const file of generator.files ?? []) data[basename(file)] = readFileSync(join(dir, file), "utf8");
    for (const file of generator.envs ?? []) {
      for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
        if (line.trim() === "" || line.startsWith("#")) continue;
        const at = line.indexOf("=");
        data[line.slice(0, at)] = line.slice(at + 1);
      }
    }
    objects.push({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: generator.name }, data });
  }
  return objects;
}
