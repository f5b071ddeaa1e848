// Package container holds the NameServer's image definition (Containerfile);
// its test checks the file's statements everywhere and builds and runs the
// image where a container engine answers.
package container
