import type { ModelList } from '../../shared/agent';
import type { ModelBackend } from './backends/modelBackend';
import { CATALOG_MODELS } from './modelCatalog';
import type { ModelConnection } from './modelConnection';

/** An endpoint's list is asked for again after this long. */
const LIST_KEPT_MS = 10 * 60_000;
/** An endpoint that did not answer is asked again sooner (it may have been starting). */
const FAILURE_KEPT_MS = 30_000;

/**
 * The models the picker offers for a backend: the endpoint's own list (`GET /v1/models`),
 * kept for a while per connection; the catalog when the endpoint does not answer or no
 * model is connected.
 */
export class ModelLists {
  private readonly kept = new WeakMap<ModelBackend, { until: number; list: Promise<ModelList> }>();

  constructor(private readonly now: () => number = Date.now) {}

  list(connection: ModelConnection): Promise<ModelList> {
    const backend = connection.backend;
    if (!backend) return Promise.resolve(catalog(connection.backendKind, 'no model is connected for this backend'));
    const kept = this.kept.get(backend);
    if (kept && kept.until > this.now()) return kept.list;
    const list = fetchList(backend, connection.backendKind).then((result) => {
      this.kept.set(backend, { until: this.now() + (result.source === 'endpoint' ? LIST_KEPT_MS : FAILURE_KEPT_MS), list: Promise.resolve(result) });
      return result;
    });
    // Asked twice while the first request is out: one request.
    this.kept.set(backend, { until: this.now() + FAILURE_KEPT_MS, list });
    return list;
  }
}

async function fetchList(backend: ModelBackend, kind: ModelList['backend']): Promise<ModelList> {
  try {
    const models = await backend.listModels(new AbortController().signal);
    if (models.length === 0) return catalog(kind, 'the endpoint listed no models');
    return { backend: kind, models: [...new Set(models)].sort(), source: 'endpoint' };
  } catch (error) {
    return catalog(kind, `the endpoint did not list its models (${error instanceof Error ? error.message : String(error)})`);
  }
}

function catalog(kind: ModelList['backend'], why: string): ModelList {
  return { backend: kind, models: [...CATALOG_MODELS[kind]], source: 'catalog', note: `Suggestions: ${why}.` };
}
