// Converts @ag-ui/core's event definitions (zod 4 schemas, exported by "@ag-ui/core/schemas") into one JSON Schema
// (draft 2020-12) file, the one the kit's AG-UI checker validates every event with (docs/runtime.md#schemas).
//
//   npm ci && node scripts/export-schemas.mjs [output file]     (no file: stdout)
//   npm run export-schemas                                      (writes the committed copy in the runtime module)
//
// The output depends only on the packages package-lock.json pins, so running it again gives the same bytes:
// AguiSchemaExportIT (conformance-suites, with the oracle) regenerates it and fails if it differs from the committed
// copy. The conversion is zod's own z.toJSONSchema (input side, every exported schema under its export name in
// $defs), plus the two things zod cannot say by itself, each derived from the definitions rather than written down:
//   - z.custom(...) and refined z.any(): zod drops predicates. Each one is probed with one JSON value of every kind
//     and written as the JSON types it accepts ({"type": "object"}, {"not": {"type": "null"}}, or {}); a predicate
//     no set of JSON types explains stops the export.
//   - z.discriminatedUnion: zod writes anyOf; written as an if/then per tag (plus the tag's enum), which is what the
//     union does, so a validator reports the matching branch's errors alone. The OpenAPI-style annotation
//     "discriminator": {"propertyName": ...} marks it.
// .meta({ specOpen: true }) (the JSON Patch operations) is kept as zod writes it: an annotation the checker reads to
// leave those objects open, as @ag-ui/client's enforcement stage does. looseObject stays as zod writes it
// ("additionalProperties": {}): the definitions accept unknown fields; the client strips them with a warning, and the
// checker reports that as AGUI1-04 (docs/runtime.md#schemas).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as definitions from "@ag-ui/core/schemas";
import { z } from "zod/v4";

const require = createRequire(import.meta.url);
const version = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version;

// One name per schema object: the package exports some under several names (AudioPartSchema is also
// AudioInputPartSchema and AudioInputContentSchema); the shortest name, then the first alphabetically, is its own.
const names = new Map();
for (const [name, value] of Object.entries(definitions).sort(([a], [b]) => a.length - b.length || a.localeCompare(b))) {
  if (value instanceof z.ZodType && name.endsWith("Schema") && !names.has(value)) {
    names.set(value, name.slice(0, -"Schema".length));
  }
}
const registry = z.registry();
for (const [schema, id] of names) {
  registry.add(schema, { ...z.globalRegistry.get(schema), id });
}

// One JSON value of each kind, to probe the predicates zod cannot write down.
const SAMPLES = [
  ["null", null], ["boolean", true], ["integer", 1], ["number", 1.5], ["string", "s"], ["array", []], ["object", {}],
];

function probed(zodSchema, path) {
  const accepted = SAMPLES.filter(([, value]) => zodSchema.safeParse(value).success).map(([kind]) => kind);
  if (accepted.length === SAMPLES.length) {
    return {};
  }
  if (accepted.length === SAMPLES.length - 1 && !accepted.includes("null")) {
    return { not: { type: "null" } };
  }
  if (accepted.length === 1 && accepted[0] === "object" && zodSchema.safeParse({ any: [null] }).success) {
    return { type: "object" };
  }
  throw new Error(`${path.join("/")}: a predicate that accepts ${JSON.stringify(accepted)} of the JSON kinds; `
    + "no JSON Schema type set says that, extend export-schemas.mjs");
}

function override({ zodSchema, jsonSchema, path }) {
  const def = zodSchema._zod.def;
  const refined = def.type === "any" && (def.checks?.length ?? 0) > 0;
  if (def.type === "custom" || refined) {
    for (const key of Object.keys(jsonSchema)) {
      delete jsonSchema[key];
    }
    Object.assign(jsonSchema, probed(zodSchema, path));
  } else if (def.type === "union" && def.discriminator) {
    const key = def.discriminator;
    const tags = def.options.map((option) => {
      const literal = option._zod.def.shape?.[key]?._zod.def;
      if (literal?.type !== "literal" || literal.values.length !== 1) {
        throw new Error(`${path.join("/")}: a discriminated union whose option has no single literal ${key}`);
      }
      return literal.values[0];
    });
    const branches = jsonSchema.anyOf ?? jsonSchema.oneOf;
    if (!Array.isArray(branches) || branches.length !== tags.length) {
      throw new Error(`${path.join("/")}: zod wrote the union ${key} without one branch per option`);
    }
    delete jsonSchema.anyOf;
    delete jsonSchema.oneOf;
    Object.assign(jsonSchema, {
      discriminator: { propertyName: key },
      type: "object",
      properties: { [key]: { enum: tags } },
      required: [key],
      // "if" holds for the tag's objects alone, so a value that is no object or lacks the tag fails once, above
      allOf: tags.map((tag, i) => ({
        if: { type: "object", required: [key], properties: { [key]: { const: tag } } },
        then: branches[i],
      })),
    });
  }
}

const schema = z.toJSONSchema(definitions.EventSchemas, {
  target: "draft-2020-12",
  io: "input",
  metadata: registry,
  unrepresentable: "any", // z.custom: replaced by override, which probes it
  cycles: "throw",
  override,
});

// $defs by name; the registry's id is the def's name, not a keyword of draft 2020-12 ($id is), so it goes.
const defs = Object.fromEntries(Object.entries(schema.$defs ?? {}).sort(([a], [b]) => a.localeCompare(b))
  .map(([name, { id, ...def }]) => [name, def]));
const { $schema, $defs, id, ...root } = schema;
const output = {
  $schema,
  $id: `https://agentlab.io/schemas/agui-core-${version("@ag-ui/core")}/events.schema.json`,
  $comment: `GENERATED, do not edit: @ag-ui/core ${version("@ag-ui/core")} EventSchemas (zod ${version("zod")}, `
    + "zod/v4 toJSONSchema) converted by oracles/agui/scripts/export-schemas.mjs; regenerate with "
    + "'cd oracles/agui && npm ci && npm run export-schemas' (docs/runtime.md#schemas)",
  ...root,
  $defs: defs,
};
const text = JSON.stringify(output, null, 2) + "\n";
if (process.argv[2]) {
  writeFileSync(process.argv[2], text);
} else {
  process.stdout.write(text);
}
