// Validates the Kubernetes manifests of a kustomization folder offline: every file the
// kustomization lists (and no other YAML beside it), every object against the JSON schema of
// its kind as kubernetes-models and @kubernetes-models/keda ship them (Kubernetes 1.x core and
// apps, KEDA v1alpha1). Nothing is downloaded at run time. Exit status 1 names each problem.
//   node validate.mjs ../kubernetes
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { ConfigMap, Service, Secret } from "kubernetes-models/v1";
import { Deployment } from "kubernetes-models/apps/v1";
import { ScaledObject, TriggerAuthentication } from "@kubernetes-models/keda/keda.sh/v1alpha1";

const models = {
  "v1/ConfigMap": ConfigMap,
  "v1/Service": Service,
  "v1/Secret": Secret,
  "apps/v1/Deployment": Deployment,
  "keda.sh/v1alpha1/ScaledObject": ScaledObject,
  "keda.sh/v1alpha1/TriggerAuthentication": TriggerAuthentication,
};

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node validate.mjs FOLDER");
  process.exit(2);
}
const problems = [];
const readYAML = (file) => {
  const docs = parseAllDocuments(readFileSync(join(dir, file), "utf8"));
  for (const d of docs) {
    for (const e of d.errors) problems.push(`${file}: ${e.message}`);
  }
  return docs.map((d) => d.toJS()).filter((o) => o !== null);
};

const [kustomization] = readYAML("kustomization.yaml");
if (kustomization?.kind !== "Kustomization" || !Array.isArray(kustomization.resources)) {
  problems.push("kustomization.yaml: not a Kustomization with resources");
}
const listed = kustomization?.resources ?? [];
const present = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== "kustomization.yaml");
for (const f of present) {
  if (!listed.includes(f)) problems.push(`${f}: not listed in kustomization.yaml`);
}

// Objects that name each other must agree: the ScaledObject's target and authentication.
const names = new Set();
const refs = [];
let objects = 0;
for (const file of listed) {
  if (!existsSync(join(dir, file))) {
    problems.push(`kustomization.yaml: ${file} does not exist`);
    continue;
  }
  for (const obj of readYAML(file)) {
    const key = `${obj.apiVersion}/${obj.kind}`;
    const Model = models[key];
    const where = `${file}: ${obj.kind ?? "?"} ${obj.metadata?.name ?? "?"}`;
    if (!Model) {
      problems.push(`${where}: no schema for ${key} (add it to deploy/validate/validate.mjs)`);
      continue;
    }
    objects++;
    try {
      new Model(obj).validate();
    } catch (err) {
      const details = (err.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ");
      problems.push(`${where}: ${details || err.message}`);
    }
    names.add(`${obj.kind}/${obj.metadata?.name}`);
    if (obj.kind === "ScaledObject") {
      refs.push([where, `Deployment/${obj.spec?.scaleTargetRef?.name}`]);
      for (const t of obj.spec?.triggers ?? []) {
        if (t.authenticationRef) refs.push([where, `TriggerAuthentication/${t.authenticationRef.name}`]);
      }
    }
    if (obj.kind === "Deployment") {
      const selector = obj.spec?.selector?.matchLabels ?? {};
      const labels = obj.spec?.template?.metadata?.labels ?? {};
      for (const [k, v] of Object.entries(selector)) {
        if (labels[k] !== v) problems.push(`${where}: the selector's ${k}=${v} is not a label of the pod template`);
      }
    }
  }
}
for (const [where, ref] of refs) {
  if (!names.has(ref)) problems.push(`${where}: refers to ${ref}, which the manifests do not define`);
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`manifests: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`manifests: ${objects} objects in ${listed.length} files valid (kubernetes-models, @kubernetes-models/keda)`);
