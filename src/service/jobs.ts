/** The jobs side of one resource's data plane, sharing the client's connection pool. */
import { BatchesApi } from './batches';
import { CallsApi } from './calls';
import { FilesApi } from './files';
import { FineTuningApi } from './fineTuning';
import type { HttpClient } from './http';

export class JobsApi {
  readonly files: FilesApi;
  readonly batches: BatchesApi;
  readonly fineTuning: FineTuningApi;
  readonly calls: CallsApi;

  constructor(http: HttpClient, v1Base: string, host: string) {
    this.files = new FilesApi(http, v1Base, host);
    this.batches = new BatchesApi(http, v1Base, host);
    this.fineTuning = new FineTuningApi(http, v1Base, host);
    this.calls = new CallsApi(http, v1Base);
  }
}
