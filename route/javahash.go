package route

// JavaStringHash is Java's String.hashCode (over UTF-16 code units), for
// tools that reproduce the iteration order of Java hash maps and sets.
func JavaStringHash(s string) int32 { return javaStringHash(s) }
