/** A stored object as the read models and events hold it (foreign keys as ids, choices bare). */
export type StoredObject = { id: number } & Record<string, unknown>;
