"""A local Hugging Face ``transformers`` causal language model, loaded from a directory.

Weights are never fetched: ``path`` must be a local directory (``save_pretrained`` output or a
downloaded snapshot) and loading uses ``local_files_only=True``. The prompt goes through the
tokenizer's chat template when it has one, else it is sent as plain text (system text, a blank
line, the prompt). Greedy decoding at temperature 0, sampling otherwise (``seed`` makes a sampled
answer repeatable); ``n`` > 1 returns that many sequences.

Text only: requests with images are refused (:attr:`supports_images` is False), so the detectors
judge such samples against their reference captions instead. Requests of a batch run one after
another (``max_workers`` is 1) -- one model on one device gains nothing from threads.

>>> TransformersBackend(path="/nonexistent")      # doctest: +ELLIPSIS
Traceback (most recent call last):
...
detectors.backends.base.BackendError: transformers backend: '/nonexistent' is not a local model directory...
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from detectors.backends.base import Backend, BackendError, ChatRequest


class TransformersBackend(Backend):
    """Options (besides :class:`Backend`'s ``cache``, ``temperature``, ``seed``, ``max_tokens``):
    ``path`` (required, a local directory), ``device`` (``"cpu"``, ``"cuda"``...), ``dtype``
    (e.g. ``"bfloat16"``; default: as saved), ``top_p``, ``chat_template`` (``"auto"``: use the
    tokenizer's when present; ``False``: always plain text), ``generate_kwargs`` (passed on)."""

    kind = "transformers"
    supports_images = False

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        *,
        device: str = "cpu",
        dtype: str | None = None,
        top_p: float | None = None,
        chat_template: str | bool = "auto",
        generate_kwargs: dict[str, Any] | None = None,
        max_tokens: int | None = 256,
        **common: Any,
    ) -> None:
        common.pop("max_workers", None)
        super().__init__(max_workers=1, max_tokens=max_tokens, **common)
        path = path or os.environ.get("CECE_HF_MODEL_PATH")
        if not path or not Path(path).is_dir():
            raise BackendError(
                f"transformers backend: {str(path)!r} is not a local model directory "
                "(weights are never downloaded; pass path= to a save_pretrained folder)"
            )
        self.path = str(Path(path).resolve())
        self.device = device
        self.top_p = top_p
        self.generate_kwargs = dict(generate_kwargs or {})
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(self.path, local_files_only=True)
        kwargs: dict[str, Any] = {"local_files_only": True}
        if dtype:
            import torch

            kwargs["dtype"] = getattr(torch, dtype)
        self.model = AutoModelForCausalLM.from_pretrained(self.path, **kwargs).to(device).eval()
        self.use_template = bool(chat_template) and getattr(self.tokenizer, "chat_template", None) is not None
        self._lock = threading.Lock()  # seeding and generation share global torch state

    def identity(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path}

    def render(self, request: ChatRequest) -> str:
        """The text the model is given."""
        if self.use_template:
            messages = [{"role": "system", "content": request.system}] if request.system else []
            messages.append({"role": "user", "content": request.prompt})
            return self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        return f"{request.system}\n\n{request.prompt}\n" if request.system else f"{request.prompt}\n"

    def payload(self, request: ChatRequest) -> dict[str, Any]:
        temperature, seed, max_tokens = self.options(request)
        return {
            "prompt": self.render(request),
            "temperature": temperature,
            "seed": seed,
            "n": request.n,
            "max_tokens": max_tokens,
            "top_p": self.top_p,
            "generate": {k: repr(v) for k, v in sorted(self.generate_kwargs.items())},
        }

    def _send(self, payload: dict[str, Any], request: ChatRequest) -> list[str]:
        import torch

        tok = self.tokenizer
        inputs = tok(payload["prompt"], return_tensors="pt", add_special_tokens=not self.use_template)
        inputs = {k: v.to(self.device) for k, v in inputs.items() if k in ("input_ids", "attention_mask")}
        sample = payload["temperature"] > 0
        # Greedy decoding has one answer: n > 1 without sampling repeats it rather than fail.
        gen: dict[str, Any] = {
            "max_new_tokens": payload["max_tokens"],
            "do_sample": sample,
            "num_return_sequences": payload["n"] if sample else 1,
            "pad_token_id": tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id,
        }
        if sample:
            gen["temperature"] = payload["temperature"]
            if self.top_p is not None:
                gen["top_p"] = self.top_p
        gen.update(self.generate_kwargs)
        try:
            with self._lock, torch.inference_mode():
                if payload["seed"] is not None:
                    torch.manual_seed(payload["seed"])
                out = self.model.generate(**inputs, **gen)
        except Exception as exc:  # a generation error is this request's failure, not the run's
            raise BackendError(f"transformers generate failed: {type(exc).__name__}: {exc}") from None
        start = inputs["input_ids"].shape[1]
        texts = [tok.decode(seq[start:], skip_special_tokens=True).strip() for seq in out]
        return texts if sample else texts * payload["n"]

    def close(self) -> None:
        self.model = None
