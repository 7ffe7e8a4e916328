package codegen

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
)

// An asynchronous copy (a Store marked Async) prints as a call of a helper
// of its element's size, which issues cp.async on GPUs that have it
// (sm_80 and later) and copies through a register on the others; a kernel
// that makes one waits for its thread's copies (cp.async.wait_all) before
// each __syncthreads, so that a copy has landed, and is visible to the
// whole block, once the barrier after it is passed. The helpers convert
// the generic addresses C gives them to the shared and global addresses
// cp.async takes.

// asyncCopyHelpers are the C definitions of the copy helpers by element
// size.
var asyncCopyHelpers = func() map[int]string {
	helpers := map[int]string{}
	for _, size := range ir.AsyncCopySizes {
		word := map[int]string{4: "unsigned int", 8: "unsigned long long"}[size]
		helpers[size] = fmt.Sprintf("static __device__ __forceinline__ void %s(void* dst, const void* src) {\n"+
			"#if __CUDA_ARCH__ >= 800\n"+
			"  asm volatile(\"{ .reg .u64 s, g; cvta.to.shared.u64 s, %%0; cvta.to.global.u64 g, %%1; "+
			"cp.async.ca.shared.global [s], [g], %d; }\" :: \"l\"(dst), \"l\"(src) : \"memory\");\n"+
			"#else\n"+
			"  *(%s*)dst = *(const %s*)src;\n"+
			"#endif\n"+
			"}", asyncCopyName(size), size, word, word)
	}
	return helpers
}()

// asyncWaitHelper is the C definition of the wait for a thread's copies.
const asyncWaitHelper = "static __device__ __forceinline__ void __obs_copy_async_wait() {\n" +
	"#if __CUDA_ARCH__ >= 800\n" +
	"  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n" +
	"#endif\n" +
	"}"

// asyncCopyName returns the name of the copy helper of elements of size
// bytes.
func asyncCopyName(size int) string { return fmt.Sprintf("__obs_copy_async%d", size) }

// printAsyncCopy prints s, an asynchronous copy from src, its indices
// prepared.
func (p *printer) printAsyncCopy(s *ir.Store, src *ir.Load) {
	e := p.prepare([]ir.Expr{s.Index, src.Index})
	p.line("%s(&%s[%s], &%s[%s]);", asyncCopyName(s.Array.Elem.Size()), s.Array.Name, expr(e[0]), src.Array.Name,
		expr(e[1]))
}

// copiesAsync reports whether body makes an asynchronous copy.
func copiesAsync(body []ir.Stmt) bool {
	found := false
	ir.WalkStmts(body, func(s ir.Stmt) bool {
		if st, ok := s.(*ir.Store); ok && st.Async {
			found = true
		}
		return !found
	})
	return found
}
