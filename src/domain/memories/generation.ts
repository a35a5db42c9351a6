// An embedding generation: the model and the vector width a tenant's memories were embedded with.
export type Generation = { readonly model: string; readonly dims: number };
