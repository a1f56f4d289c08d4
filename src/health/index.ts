/** What other features may use of this one: nothing; /health only reads the others. */
export {};
