"""One module per LLM backend behind `lemmaforge.agent.llm.LLM`: `openai_compat` (HTTP servers;
`openai_errors` and `openai_wire` are its parts), `vllm_offline` (in-process vLLM, GPU), `hf_local`
(in-process transformers, CPU); `base` is what they share. Build one with `lemmaforge.agent.llm.make_llm`."""
