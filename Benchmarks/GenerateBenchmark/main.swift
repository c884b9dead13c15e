print("GenerateBenchmark: waiting for BenchmarkSupport (branch sdl)")
