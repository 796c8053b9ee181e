/** Errors by field name ('__all__' for the object as a whole), as NetBox answers a 400. */
export interface FieldErrors {
  [field: string]: string[];
}
