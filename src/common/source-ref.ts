/** Where an object was written: the file and line a message points the user to. */
export interface SourceRef {
  /** Path relative to the repository (or the package root when no repository is known). */
  file: string;
  /** 1-based line of the object's first line in that file. */
  line: number;
}
