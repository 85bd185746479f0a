"""A kernel reached as JupyterLab reaches it: the Jupyter messaging protocol over the server's websocket (class_hub.py).

Messages are JSON text frames; a message with binary buffers arrives as one binary frame in jupyter_server's
legacy layout (number of parts, their offsets, the JSON message, the buffers). Widgets speak through comm
messages: the kernel opens a comm per widget (``comm_open`` with its state), and a front end changes a synced
trait with ``{"method": "update", "state": {...}, "buffer_paths": []}``, which is what a drop in the explorer sends
for its ``order``.
"""

import ast
import asyncio
import json
import time
import uuid
from datetime import datetime, timezone


def decode(frame):
    """The message of one websocket frame (text, or binary with buffers)."""
    if isinstance(frame, str):
        return json.loads(frame)
    parts = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i: 8 + 4 * i], "big") for i in range(parts)] + [len(frame)]
    return json.loads(frame[offsets[0]:offsets[1]])


class Kernel:
    """One student's kernel connection: runs cells, keeps the widgets it opened, times explorer moves."""

    def __init__(self, websocket, username):
        self.websocket, self.username, self.session = websocket, username, uuid.uuid4().hex
        self.widgets = {}  # comm_id -> latest state
        self.replies = {}  # msg_id -> future of its execute_reply content
        self.waiting = {}  # comm_id -> (order, future) of the move awaiting the kernel's panels
        self.reader = asyncio.ensure_future(self._read())

    def _send(self, channel, msg_type, content):
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "username": self.username, "session": self.session, "msg_type": msg_type,
                  "version": "5.3", "date": datetime.now(timezone.utc).isoformat()}
        message = {"header": header, "parent_header": {}, "metadata": {}, "content": content, "buffers": [], "channel": channel}
        self.websocket.write_message(json.dumps(message))
        return msg_id

    async def _read(self):
        while True:
            frame = await self.websocket.read_message()
            if frame is None:
                error = RuntimeError("the kernel's websocket closed")
                for future in [*self.replies.values(), *(f for _, f in self.waiting.values())]:
                    if not future.done():
                        future.set_exception(error)
                return
            self._dispatch(decode(frame))

    def _dispatch(self, message):
        kind, content = message["header"]["msg_type"], message["content"]
        if kind == "execute_reply":
            future = self.replies.pop(message["parent_header"].get("msg_id"), None)
            if future and not future.done():
                future.set_result(content)
        elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.widgets[content["comm_id"]] = dict(content["data"].get("state", {}))
        elif kind == "comm_msg" and content["comm_id"] in self.widgets:
            data = content["data"]
            if data.get("method") in ("update", "echo_update"):
                self.widgets[content["comm_id"]].update(data.get("state", {}))
            panels = data.get("state", {}).get("panels") if data.get("method") == "update" else None
            waiting = self.waiting.get(content["comm_id"])
            if panels and waiting and panels[0].get("order") == waiting[0] and not waiting[1].done():
                waiting[1].set_result(time.monotonic())
            notice = data.get("state", {}).get("notice") or {}
            if notice.get("kind") == "error" and waiting and not waiting[1].done():
                waiting[1].set_exception(RuntimeError(f"the explorer said: {notice.get('text')}"))

    async def run_all(self, sources):
        """Send every cell at once, as Run All does; returns the execute_reply contents in order."""
        loop = asyncio.get_running_loop()
        futures = []
        for source in sources:
            future = loop.create_future()
            msg_id = self._send("shell", "execute_request", {"code": source, "silent": False, "store_history": True,
                                                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
            self.replies[msg_id] = future
            futures.append(future)
        return await asyncio.gather(*futures)

    async def evaluate(self, code, expression, timeout=120):
        """Run ``code``, then return ``expression``'s value as the kernel shows it (``text/plain``, read back with
        ast.literal_eval), or raise RuntimeError with the kernel's error."""
        future = asyncio.get_running_loop().create_future()
        msg_id = self._send("shell", "execute_request", {"code": code, "silent": False, "store_history": False,
                                                            "user_expressions": {"value": expression}, "allow_stdin": False,
                                                            "stop_on_error": True})
        self.replies[msg_id] = future
        reply = await asyncio.wait_for(future, timeout)
        if reply["status"] != "ok":
            raise RuntimeError(f"{self.username}'s kernel: {reply.get('ename')}: {reply.get('evalue')}")
        value = reply["user_expressions"]["value"]
        if value["status"] != "ok":
            raise RuntimeError(f"{self.username}'s kernel: {value.get('ename')}: {value.get('evalue')}")
        return ast.literal_eval(value["data"]["text/plain"])

    def first_ranking_explorer(self):
        """The first widget with a single ``order`` (a RankingExplorer): {"comm_id", "order"}, or None."""
        for comm_id, state in self.widgets.items():
            if isinstance(state.get("order"), list) and state.get("panels"):
                return {"comm_id": comm_id, "order": state["order"]}
        return None

    async def move(self, comm_id, order, timeout):
        """Send the explorer its new ``order`` as a drop does; seconds until the kernel's panels for it arrive."""
        future = asyncio.get_running_loop().create_future()
        self.waiting[comm_id] = (list(order), future)
        sent = time.monotonic()
        self._send("shell", "comm_msg", {"comm_id": comm_id, "data": {"method": "update", "state": {"order": list(order)}, "buffer_paths": []}})
        try:
            return await asyncio.wait_for(future, timeout) - sent
        finally:
            self.waiting.pop(comm_id, None)

    def close(self):
        self.reader.cancel()
        self.websocket.close()
