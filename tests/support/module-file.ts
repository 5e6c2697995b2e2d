/** Jest's stand-in for src/main/module-file.ts (CommonJS has no `import.meta`): a file inside the repository. */
export const MODULE_FILE: string = __filename;
