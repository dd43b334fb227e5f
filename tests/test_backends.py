"""LLM/VLM backends, offline: the HTTP client against a scripted local OpenAI-compatible server,
and the transformers backend on a tiny random model built here."""

from __future__ import annotations

import base64
import email.utils
import json
import time

import pytest
from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)

from detectors.backends import BackendError, ChatRequest, create_backend, resolve_backend
from detectors.backends.openai_compat import OpenAIBackend

PNG, Reply, ScriptedServer = llm.PNG, llm.Reply, llm.ScriptedServer


def backend(server, **options) -> OpenAIBackend:
    options = {"base_url": server.url, "model": "judge", "backoff": 0.01, "timeout": 5, **options}
    return OpenAIBackend(**options)


def echo(body, n):
    return "echo: " + llm.prompt_of(body)


# -- request shape, configuration ------------------------------------------------------------
def test_image_goes_as_data_url_and_env_configures(tmp_path, monkeypatch):
    image = tmp_path / "pixel.png"
    image.write_bytes(PNG)
    with ScriptedServer(echo) as server:
        monkeypatch.setenv("CECE_LLM_BASE_URL", server.url + "/")
        monkeypatch.setenv("CECE_LLM_MODEL", "qwen-vl")
        monkeypatch.setenv("CECE_LLM_API_KEY", "sk-test")
        b = create_backend("openai")
        out = b.complete(
            ChatRequest("What is it?", images=(str(image),), system="Be brief.", temperature=0.5, seed=7, max_tokens=9)
        )
    assert out.text == "echo: What is it?"
    body, headers = server.bodies[0], server.headers[0]
    assert (body["model"], body["temperature"], body["seed"], body["max_tokens"]) == ("qwen-vl", 0.5, 7, 9)
    assert body["messages"][0] == {"role": "system", "content": "Be brief."}
    [url] = llm.images_of(body)
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == PNG
    assert headers["Authorization"] == "Bearer sk-test"


def test_missing_configuration_says_what_to_set(monkeypatch):
    monkeypatch.delenv("CECE_LLM_BASE_URL", raising=False)
    with pytest.raises(BackendError, match="CECE_LLM_BASE_URL"):
        create_backend("openai", model="m")
    with pytest.raises(KeyError, match="unknown backend 'nope'"):
        create_backend("nope")
    b = resolve_backend({"kind": "vllm", "base_url": "http://127.0.0.1:9/v1", "model": "m", "max_workers": 2})
    assert isinstance(b, OpenAIBackend) and b.max_workers == 2


# -- retries -----------------------------------------------------------------------------------
def test_server_errors_are_retried():
    def flaky(body, n):
        return Reply(status=500, body=b"overloaded") if n <= 2 else Reply("fine")

    with ScriptedServer(flaky) as server:
        b = backend(server)
        assert b.complete(ChatRequest("q")).text == "fine"
    assert server.count == 3 and b.stats.retries == 2


def test_429_retry_after_is_honoured():
    def limited(body, n):
        return Reply(status=429, body=b"slow down", headers={"Retry-After": "1"}) if n == 1 else Reply("ok")

    with ScriptedServer(limited) as server:
        b = backend(server, backoff=0.0)
        start = time.monotonic()
        assert b.complete(ChatRequest("q")).text == "ok"
        waited = time.monotonic() - start
    assert server.count == 2 and b.stats.retries == 1
    assert waited >= 0.9  # the header's second, not the zero backoff


def test_slow_answer_times_out_then_retries():
    def slow_first(body, n):
        return Reply("late", delay=1.5) if n == 1 else Reply("quick")

    with ScriptedServer(slow_first) as server:
        b = backend(server, timeout=0.3)
        assert b.complete(ChatRequest("q")).text == "quick"
    assert server.count == 2 and b.stats.retries == 1


def test_malformed_answers_are_retried_then_reported():
    def garbled(body, n):
        if n == 1:
            return Reply(body=b"<html>bad gateway</html>")
        if n == 2:
            return Reply(body=b'{"object": "chat.completion", "choices": []}')
        return Reply("finally")

    with ScriptedServer(garbled) as server:
        b = backend(server)
        assert b.complete(ChatRequest("q")).text == "finally"
    assert server.count == 3 and b.stats.retries == 2

    with ScriptedServer(lambda body, n: Reply(body=b'{"no": "choices"}')) as server:
        b = backend(server, max_retries=2)
        with pytest.raises(BackendError, match="malformed answer .no choices.*3 attempts"):
            b.complete(ChatRequest("q"))
    assert server.count == 3 and b.stats.failures == 1


def test_503_then_200_is_retried_and_retry_after_dates_are_capped():
    def unavailable(body, n):
        if n == 1:
            return Reply(status=503, body=b"loading model")
        if n == 2:  # an HTTP date an hour away: waited, but no longer than max_backoff
            return Reply(
                status=429,
                body=b"busy",
                headers={"Retry-After": email.utils.formatdate(time.time() + 3600, usegmt=True)},
            )
        return Reply("ok")

    with ScriptedServer(unavailable) as server:
        b = backend(server, backoff=0.25, max_backoff=7.0)
        waits: list[float] = []
        b._sleep = waits.append
        assert b.complete(ChatRequest("q")).text == "ok"
    assert server.count == 3 and b.stats.retries == 2
    assert waits == [0.25, 7.0]  # the backoff, then the capped header


@pytest.mark.parametrize(
    "status, message",
    [
        (500, "the request exceeds the available context size, try increasing it"),
        (500, "image input is not supported by this model"),
        (429, "You exceeded your current quota: insufficient_quota"),
        (400, "bad request"),
        (401, "unauthorised"),
        (404, "no such route"),
        (501, "not implemented"),
    ],
)
def test_permanent_failures_are_not_retried_and_become_the_records_error(status, message, tmp_path, monkeypatch):
    from detectors.vlm import VLMDetector

    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.png").write_bytes(PNG)
    body = json.dumps({"error": {"code": status, "message": message, "type": "server_error"}}).encode()
    with ScriptedServer(lambda b, n: Reply(status=status, body=body)) as server:
        det = VLMDetector(backend={"base_url": server.url, "model": "m", "backoff": 0.01, "max_workers": 1})
        good, bad = det.detect_batch(
            [{"id": "a", "caption": "A dog.", "image": "p.png"}, {"id": "b", "caption": "A cat.", "image": "p.png"}]
        )
    assert server.count == 2 and det.backend.stats.retries == 0  # one attempt per record
    for d in (good, bad):
        assert d.score is None and f"HTTP {status}" in d.error and message in d.error
        assert d.details["parse_failures"] == 0


def test_a_dropped_connection_is_retried():
    def drop_first(body, n):
        if n == 1:
            raise ConnectionAbortedError("dropped")  # the handler dies: the socket closes, no answer
        return Reply("fine")

    with ScriptedServer(drop_first) as server:
        b = backend(server)
        assert b.complete(ChatRequest("q")).text == "fine"
    assert server.count == 2 and b.stats.retries == 1


def test_response_format_is_sent_and_a_server_that_rejects_it_gets_prose():
    schema = {"type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]}

    def strict(body, n):
        return '{"score": 7}'

    def old_server(body, n):
        if "response_format" in body:
            return Reply(status=400, body=b'{"error": {"message": "Unsupported param: response_format"}}')
        return Reply("The sentence is correct.")

    with ScriptedServer(strict) as server:
        assert backend(server).complete(ChatRequest("q", schema=schema)).text == '{"score": 7}'
    assert server.bodies[0]["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "answer", "strict": True, "schema": schema},
    }
    with ScriptedServer(old_server) as server:
        b = backend(server)
        out = [b.complete(ChatRequest(f"q{i}", schema=schema)).text for i in range(3)]
    assert out == ["The sentence is correct."] * 3
    # rejected once, then never asked again; a rejection is no failure and no retry
    assert ["response_format" in body for body in server.bodies] == [True, False, False, False]
    assert b.stats.failures == 0 and b.stats.retries == 0
    with ScriptedServer(old_server) as server:
        with pytest.raises(BackendError, match="HTTP 400.*response_format"):
            backend(server, structured_output=True, max_retries=0).complete(ChatRequest("q", schema=schema))
        assert not backend(server, structured_output=False).complete(ChatRequest("q", schema=schema)).cached


# -- secrets -----------------------------------------------------------------------------------
def test_credentials_and_api_keys_never_reach_errors(tmp_path, monkeypatch):
    from detectors.vlm import VLMDetector

    password, key = "s3cret-pass", "sk-live-Zq81xY"
    seen = []

    def echo_auth(body, n):  # a server that quotes what it got, as some do in 401 messages
        seen.append(server.headers[-1].get("Authorization"))
        return Reply(status=401, body=json.dumps({"error": {"message": f"bad credentials: {seen[-1]}"}}).encode())

    monkeypatch.chdir(tmp_path)
    with ScriptedServer(echo_auth) as server:
        url = server.url.replace("http://", f"http://alice:{password}@")
        b = OpenAIBackend(base_url=url, model="m", max_retries=0)
        with pytest.raises(BackendError) as info:
            b.complete(ChatRequest("q"))
        det = VLMDetector(backend={"base_url": url, "model": "m", "api_key": key, "max_retries": 0})
        row = det.detect({"id": "x", "caption": "A dog.", "references": ["a dog"]})
    assert seen[0] == "Basic " + base64.b64encode(f"alice:{password}".encode()).decode()  # sent, as auth
    assert seen[1] == f"Bearer {key}"
    dead = VLMDetector(
        backend={
            "base_url": f"http://alice:{password}@127.0.0.1:9/v1",
            "model": "m",
            "api_key": key,
            "max_retries": 1,
            "backoff": 0.01,
            "timeout": 1,
        }
    )
    refused = dead.detect({"id": "y", "caption": "A dog.", "references": ["a dog"]})
    texts = [
        str(info.value),
        repr(b),
        b.url,
        json.dumps(row.to_dict()),
        json.dumps(refused.to_dict()),
        json.dumps(b.identity()),
    ]
    assert "HTTP 401" in texts[0] and "HTTP 401" in row.error and "gave up after 2 attempts" in refused.error
    for text in texts:
        assert password not in text and key not in text and "alice" not in text, text


# -- client errors -----------------------------------------------------------------------------
def test_client_errors_are_not_retried():
    with ScriptedServer(lambda body, n: Reply(status=400, body=b'{"error": "bad model"}')) as server:
        b = backend(server)
        with pytest.raises(BackendError, match="HTTP 400.*bad model") as info:
            b.complete(ChatRequest("q"))
    assert server.count == 1 and info.value.status == 400


def test_connection_refused_is_retried_then_fails():
    with ScriptedServer(echo) as server:
        url = server.url
    b = OpenAIBackend(base_url=url, model="m", backoff=0.01, max_retries=2, timeout=1)
    with pytest.raises(BackendError, match="gave up after 3 attempts"):
        b.complete(ChatRequest("q"))
    assert b.stats.requests == 3 and b.stats.retries == 2


# -- cache, batches, n -------------------------------------------------------------------------
def test_cache_avoids_a_second_request(tmp_path):
    with ScriptedServer(echo) as server:
        b = backend(server)
        first, again = b.complete(ChatRequest("q")), b.complete(ChatRequest("q"))
        assert (first.cached, again.cached, again.text) == (False, True, first.text)
        assert server.count == 1 and b.stats.cache_hits == 1
        b.complete(ChatRequest("q", seed=1))  # another seed is another request
        assert server.count == 2
        disk = tmp_path / "cache"
        backend(server, cache=str(disk)).complete(ChatRequest("q", temperature=0.3))
        assert backend(server, cache=str(disk)).complete(ChatRequest("q", temperature=0.3)).cached
        assert server.count == 3  # a new process (backend) reuses the disk cache
        assert not backend(server, cache=None).complete(ChatRequest("q")).cached


def test_batches_run_with_bounded_concurrency_in_order():
    with ScriptedServer(lambda body, n: Reply("echo: " + llm.prompt_of(body), delay=0.15)) as server:
        b = backend(server, max_workers=3)
        out = b.complete_many([ChatRequest(f"q{i}") for i in range(12)])
    assert [o.text for o in out] == [f"echo: q{i}" for i in range(12)]
    assert server.max_active == 3


def test_a_failed_request_does_not_lose_the_batch():
    def picky(body, n):
        return Reply(status=404, body=b"nope") if llm.prompt_of(body) == "bad" else Reply("ok")

    with ScriptedServer(picky) as server:
        out = backend(server, max_workers=2).complete_many([ChatRequest("a"), ChatRequest("bad"), ChatRequest("b")])
    assert out[0].text == "ok" and isinstance(out[1], BackendError) and out[2].text == "ok"


def test_n_is_filled_up_when_the_server_ignores_it():
    with ScriptedServer(lambda body, n: f"seed {body.get('seed')}") as server:
        out = backend(server).complete(ChatRequest("q", n=3, seed=10, temperature=0.7))
    assert out.texts == ["seed 10", "seed 11", "seed 12"]
    assert server.bodies[0]["n"] == 3 and "n" not in server.bodies[1]


# -- transformers ------------------------------------------------------------------------------
WORDS = [
    "a dog sits on a red sofa .",
    "the cat is white and small",
    "yes no maybe",
    "there is a man near the window",
    "user assistant system :",
]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A 2-layer GPT-2 with random weights and a word-level tokenizer trained on a few sentences
    (no digits, no "score": its answers can never be read as a score)."""
    torch = pytest.importorskip("torch")
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.decoder = decoders.WordPiece()
    tok.train_from_iterator(WORDS, trainers.WordLevelTrainer(special_tokens=["[UNK]", "[PAD]", "<eos>"]))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", eos_token="<eos>")
    torch.manual_seed(0)
    model = GPT2LMHeadModel(
        GPT2Config(
            vocab_size=fast.vocab_size,
            n_positions=512,
            n_embd=16,
            n_layer=2,
            n_head=2,
            bos_token_id=2,
            eos_token_id=2,
            pad_token_id=1,
        )
    )
    plain = tmp_path_factory.mktemp("tiny-plain")
    model.save_pretrained(plain)
    fast.save_pretrained(plain)
    templated = tmp_path_factory.mktemp("tiny-chat")
    model.save_pretrained(templated)
    fast.chat_template = (
        "{% for m in messages %}{{ m['role'] }} : {{ m['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}assistant :{% endif %}"
    )
    fast.save_pretrained(templated)
    return plain, templated


def test_transformers_backend_generates_from_a_local_path(tiny_model):
    plain, templated = tiny_model
    b = create_backend("transformers", path=str(plain), max_tokens=6, cache=None)
    assert (
        not b.use_template
        and b.render(ChatRequest("is there a dog", system="be brief")) == "be brief\n\nis there a dog\n"
    )
    greedy = b.complete(ChatRequest("is there a dog")).text
    assert isinstance(greedy, str) and greedy == b.complete(ChatRequest("is there a dog")).text
    assert b.complete(ChatRequest("is there a dog", n=2)).texts == [greedy, greedy]  # greedy: one answer
    sampled = b.complete(ChatRequest("is there a dog", temperature=1.0, seed=3, n=2))
    assert len(sampled.texts) == 2
    assert sampled.texts == b.complete(ChatRequest("is there a dog", temperature=1.0, seed=3, n=2)).texts
    with pytest.raises(BackendError, match="does not take images"):
        b.complete(ChatRequest("what is it", images=("data:image/png;base64,AA==",)))

    chat = create_backend("hf", path=str(templated), max_tokens=4)
    assert chat.use_template
    assert chat.render(ChatRequest("hi", system="sys")) == "system : sys\nuser : hi\nassistant :"
    assert isinstance(chat.complete(ChatRequest("hi")).text, str)


def test_transformers_backend_never_downloads(tmp_path):
    with pytest.raises(BackendError, match="not a local model directory"):
        create_backend("transformers", path="gpt2")  # a hub id, not a folder


def test_transformers_backend_end_to_end_counts_parse_failures(tiny_model):
    from detectors.vlm import VLMDetector

    det = VLMDetector(
        protocol="alignbench", backend={"kind": "transformers", "path": str(tiny_model[0]), "max_tokens": 5}
    )
    sample = {
        "id": "s1",
        "caption": "A dog sits on a red sofa. The cat is white.",
        "image": "never-read.png",
        "references": ["a dog on a sofa", "a white cat"],
    }
    d = det.detect(sample)
    assert d.details["evidence"] == "references"  # a text-only backend judges against references
    # random words are no judgement: counted and kept, never scored 0.5
    assert d.details["parse_failures"] == 2 and len(d.details["unparsed"]) == 2
    assert d.score is None and d.sentences == [] and d.details["unscored"] == [[0, 25], [26, 43]]
    assert "no judgement could be read (2 unparsed answers" in d.error
