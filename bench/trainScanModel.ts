// Fits the weights of the scan's learned-wording rule (electron/core/catalog/scan/rules/learnedWording.ts):
// a logistic regression over the word unigrams and bigrams of each sentence, trained on the DEV part
// of the labelled corpus only (test/fixtures/poison/corpus; the held-out part is never read here).
// Each sentence of a poisoned definition starts labelled poisoned, each sentence of a clean one clean;
// after a first fit, only the highest-scoring sentence of each poisoned definition stays positive
// (the others are usually the tool's ordinary opening), and the model is fitted again. The threshold
// is the lowest at which at most 5% of the dev negatives score above it out of fold (5-fold
// cross-validation over definitions), raised if needed so the rule alone flags at most 2% of the
// real LiveMCPBench tools (read only to place the threshold, never as training data). Writes electron/core/catalog/scan/model/wordingWeights.ts.
// Run: node --import tsx bench/trainScanModel.ts
//
// The fit is plain batch gradient descent (a few dozen lines): no classifier library is in the tree,
// and the shipped rule only needs a dot product over a small table, which no dependency would simplify.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import {
  promptFields,
  resourceFields,
  sentenceSpans,
  templateFields,
  toolFields,
  wordingFeatures,
} from '../electron/core/catalog/index.js';
import { loadCorpus, loadLiveMcpBench, type CorpusEntry } from '../test/helpers/scanCorpus.js';

const OUT = join(import.meta.dirname, '..', 'electron/core/catalog/scan/model/wordingWeights.ts');
const L2 = Number(process.env.L2 ?? 0.003);
const EPOCHS = 300;
const RATE = 0.5;
const MIN_WEIGHT = 0.05;
const MIN_COUNT = Number(process.env.MIN_COUNT ?? 2);
const NEGATIVE_FP = 0.05;
const LIVE_SHARE = 0.02;
/** As in the rule: sentences of fewer words are not scored. */
const MIN_WORDS = 4;

interface Sample {
  entry: number;
  grams: string[];
  label: 0 | 1;
}

function sentencesOf(entry: CorpusEntry): string[] {
  const { tools, prompts, resources, resourceTemplates } = entry.input;
  const fields = [
    ...tools.flatMap(toolFields),
    ...prompts.flatMap(promptFields),
    ...resources.flatMap(resourceFields),
    ...resourceTemplates.flatMap(templateFields),
  ].filter((field) => !field.isName);
  return fields.flatMap((field) => sentenceSpans(field.text).map(({ start, end }) => field.text.slice(start, end)));
}

const gramsOf = (sentence: string): string[] => [...new Set(wordingFeatures(sentence).map((f) => f.gram))];

interface Model {
  bias: number;
  weights: Map<string, number>;
}

function fit(samples: Sample[]): Model {
  const counts = new Map<string, number>();
  for (const s of samples) for (const g of s.grams) counts.set(g, (counts.get(g) ?? 0) + 1);
  const weights = new Map<string, number>();
  for (const [g, n] of counts) if (n >= MIN_COUNT) weights.set(g, 0);
  const positives = samples.filter((s) => s.label === 1).length;
  // Classes weighted equally, so the many clean sentences do not drown the few poisoned ones.
  const classWeight = [samples.length / (2 * (samples.length - positives)), samples.length / (2 * positives)];
  let bias = 0;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const gradient = new Map<string, number>();
    let gradientBias = 0;
    for (const s of samples) {
      const z = bias + s.grams.reduce((sum, g) => sum + (weights.get(g) ?? 0), 0);
      const error = (1 / (1 + Math.exp(-z)) - s.label) * classWeight[s.label]!;
      gradientBias += error;
      for (const g of s.grams) if (weights.has(g)) gradient.set(g, (gradient.get(g) ?? 0) + error);
    }
    bias -= (RATE * gradientBias) / samples.length;
    for (const [g, w] of weights) {
      weights.set(g, w - RATE * ((gradient.get(g) ?? 0) / samples.length + L2 * w));
    }
  }
  return { bias, weights };
}

const score = (model: Model, grams: string[]): number =>
  1 / (1 + Math.exp(-(model.bias + grams.reduce((sum, g) => sum + (model.weights.get(g) ?? 0), 0))));

/** Fit, then keep only each poisoned definition's top sentence as a positive and fit again. */
function train(entries: CorpusEntry[]): Model {
  const samples: Sample[] = entries.flatMap((entry, index) =>
    sentencesOf(entry).map((sentence) => ({
      entry: index,
      grams: gramsOf(sentence),
      label: entry.poisoned ? (1 as const) : (0 as const),
    })),
  );
  const first = fit(samples);
  const best = new Map<number, Sample>();
  for (const s of samples) {
    if (s.label !== 1) continue;
    const was = best.get(s.entry);
    if (!was || score(first, s.grams) > score(first, was.grams)) best.set(s.entry, s);
  }
  return fit(samples.filter((s) => s.label === 0 || best.get(s.entry) === s));
}

const maxScore = (model: Model, entry: CorpusEntry): number =>
  Math.max(
    0,
    ...sentencesOf(entry)
      .filter((sentence) => wordingFeatures(sentence).filter((f) => !f.gram.includes(' ')).length >= MIN_WORDS)
      .map((sentence) => score(model, gramsOf(sentence))),
  );

const DUMMY = { id: '', kind: '', source: '', poisoned: false, set: 'dev' as const };
const dev = loadCorpus().filter((entry) => entry.set === 'dev');
// Out-of-fold scores for the threshold: folds by position in the (file, id) order.
const outOfFold = new Map<string, number>();
const FOLDS = 5;
for (let fold = 0; fold < FOLDS; fold++) {
  const model = train(dev.filter((_, i) => i % FOLDS !== fold));
  dev.forEach((entry, i) => {
    if (i % FOLDS === fold) outOfFold.set(entry.id, maxScore(model, entry));
  });
}
const negativeScores = dev
  .filter((e) => !e.poisoned)
  .map((e) => outOfFold.get(e.id)!)
  .sort((a, b) => b - a);
const cvThreshold = Math.max(0.5, negativeScores[Math.floor(NEGATIVE_FP * negativeScores.length)] ?? 0.5);

const model = train(dev);
const liveScores = loadLiveMcpBench()
  .flatMap((input) => input.tools.map((tool) => ({ ...DUMMY, input: { ...input, tools: [tool] } })))
  .map((entry) => maxScore(model, entry))
  .sort((a, b) => b - a);
const liveThreshold = liveScores[Math.floor(LIVE_SHARE * liveScores.length)] ?? 0;
const threshold = Math.max(cvThreshold, liveThreshold);
const poisonedDev = dev.filter((e) => e.poisoned);
const caught = poisonedDev.filter((e) => outOfFold.get(e.id)! > threshold).length;
console.log(
  `dev: ${poisonedDev.length} poisoned, ${negativeScores.length} clean; threshold ${threshold.toFixed(3)} ` +
    `(dev negatives ${cvThreshold.toFixed(3)}, LiveMCPBench ${liveThreshold.toFixed(3)}); ` +
    `out of fold: ${caught} dev poisoned above it (${((100 * caught) / poisonedDev.length).toFixed(1)}%)`,
);
const kept = [...model.weights]
  .filter(([, w]) => Math.abs(w) >= MIN_WEIGHT)
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([g, w]) => [g, Math.round(w * 1000) / 1000] as const);
const source =
  `// Generated by bench/trainScanModel.ts from the dev part of test/fixtures/poison/corpus; do not edit.\n` +
  `export const WORDING_MODEL = {\n  bias: ${model.bias.toFixed(3)},\n  threshold: ${threshold.toFixed(3)},\n` +
  `  weights: {\n${kept.map(([g, w]) => `    ${JSON.stringify(g)}: ${w},`).join('\n')}\n  } as Record<string, number>,\n};\n`;
writeFileSync(OUT, await format(source, { ...(await resolveConfig(OUT)), filepath: OUT }));
console.log(`wrote ${kept.length} weights to ${OUT}`);
