// The shared configuration of the libraries with a coverage floor (the repository's vitest.shared.mjs).
export { libraryConfig as default } from '../../vitest.shared.mjs';
