import type { KubeObject } from '../common/kube-object.js';
import type { SourceRef } from '../common/source-ref.js';

/** An object read from a package, with where it was written (for errors, annotations and the PR comment). */
export interface LoadedObject {
  object: KubeObject;
  source: SourceRef;
}
