/** The part of the `stopword` package we use (it ships no types). */
declare module 'stopword' {
  /** English stopwords. */
  export const eng: string[];
}
