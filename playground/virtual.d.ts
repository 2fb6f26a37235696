/** The examples/*.delta files, put into the page by build.mjs: the featured ones first. */
declare module 'virtual:examples' {
  const examples: { file: string; title: string; text: string }[];
  export default examples;
}

/** The language's keywords and built-in functions, from the library's entry (build.mjs). */
declare module 'virtual:language' {
  const words: { keywords: string[]; functions: string[] };
  export default words;
}
