//line /work/main/cmd/obsgen/testdata/pkg-4135534141/p_launch.go:1:1
package p
