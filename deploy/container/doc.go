// Package container holds the NameServer's image definition (Containerfile);
// its tests check the file's statements everywhere (the version stamp
// through build arguments, which make image passes, and the repository's
// .dockerignore), and build and run the image where a container engine
// answers.
package container
