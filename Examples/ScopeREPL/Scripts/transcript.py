"""Drives `scope-repl --json` through a fixed script that touches every
request (units, sessions, replacements on old bases, conflicts and merges,
streaming, undo, redo, revert, origins, errors, then attributes, Markdown, tracked ranges,
suggestions and the history) and prints
each request with its response. Context ids are taken from the replies ($0, $1, ... in the
requests) and printed as <id0>, <id1>, ..., so that the transcripts of two
builds can be compared byte for byte; tracked range ids are taken from the
`track` replies in order (@0, @1, ... in the requests), suggestion ids from the `suggest`
replies (#0, #1, ...):

    python3 Examples/ScopeREPL/Scripts/transcript.py OLD/.build/debug/scope-repl > old.txt
    python3 Examples/ScopeREPL/Scripts/transcript.py .build/debug/scope-repl > new.txt
    diff old.txt new.txt
"""
import json, re, subprocess, sys
repl = sys.argv[1]
p = subprocess.Popen([repl, "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
ids = []
tracked = []
suggested = []
uuid = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")
def send(req):
    line = req
    for i, u in enumerate(ids): line = line.replace(f"${i}", u)
    for i, t in reversed(list(enumerate(tracked))): line = line.replace(f"@{i}", str(t))
    for i, t in reversed(list(enumerate(suggested))): line = line.replace(f"#{i}", str(t))
    p.stdin.write(line + "\n"); p.stdin.flush()
    out = p.stdout.readline()
    found = uuid.findall(out)
    if out.startswith('{"ok":true,"ids":['): tracked.extend(json.loads(out)["ids"])
    if out.startswith('{"ok":true,"id":'): suggested.append(json.loads(out)["id"])
    if '"contexts":[' in out:
        ids.clear(); ids.extend(found)
    norm = out
    for u in found:
        if u not in ids: ids.append(u)
        norm = norm.replace(u, f"<id{ids.index(u)}>")
    print(req); print(norm, end="")
script = [
 '{"cmd":"add","storage":"title","text":"Draft 👋🏽\\n"}',
 '{"cmd":"add","storage":"body","text":"One two.\\r\\nThree fuor.\\u2029Five e\\u0301.\\nSix 🇫🇷 seven.\\n"}',
 '{"cmd":"add","storage":"code","text":"let x = 1\\n","after":"title"}',
 '{"cmd":"storages"}',
 '{"cmd":"exclude","storage":"code","offset":0,"length":9}',
 '{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"Zero. "}',
 '{"cmd":"edit","storage":"body","offset":2,"length":1,"text":"é","unit":"scalar"}',
 '{"cmd":"edit","storage":"body","offset":3,"length":2,"text":"ü","unit":"utf8"}',
 '{"cmd":"edit","storage":"body","offset":0,"length":0,"text":""}',
 '{"cmd":"text","storage":"body"}',
 '{"cmd":"text","storage":"body","range":{"offset":2,"length":3},"unit":"scalar"}',
 '{"cmd":"select","ranges":[{"storage":"body","offset":16,"length":4}]}',
 '{"cmd":"contexts","scope":"userSelection","surroundingParagraphs":1}',
 '{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"A "}',
 '{"cmd":"replace","context":"$0","offset":10,"length":4,"text":"four","basis":0}',
 '{"cmd":"replace","context":"$0","offset":0,"length":2,"text":"XX","basis":0}',
 '{"cmd":"edit","storage":"body","offset":12,"length":3,"text":"zz"}',
 '{"cmd":"replace","context":"$0","offset":11,"length":2,"text":"q","basis":1}',
 '{"cmd":"replace","context":"$0","offset":11,"length":2,"text":"q","basis":1,"policy":"merge"}',
 '{"cmd":"toolSelect","context":"$0","ranges":[{"offset":1,"length":2}]}',
 '{"cmd":"state","state":"interactiveResting"}',
 '{"cmd":"state","state":"interactiveStreaming"}',
 '{"cmd":"replace","context":"$0","offset":0,"length":1,"text":"Ω"}',
 '{"cmd":"replace","context":"$0","offset":3,"length":0,"text":"++"}',
 '{"cmd":"state","state":"interactiveResting"}',
 '{"cmd":"state","state":"noninteractive"}',
 '{"cmd":"undo"}', '{"cmd":"undo"}', '{"cmd":"redo"}', '{"cmd":"undo"}', '{"cmd":"undo"}', '{"cmd":"undo"}',
 '{"cmd":"revert"}', '{"cmd":"redo"}',
 '{"cmd":"text","storage":"body"}',
 '{"cmd":"map","storage":"body","offset":5,"from":0}',
 '{"cmd":"map","storage":"body","offset":5,"from":0,"assoc":-1}',
 '{"cmd":"map","storage":"body","offset":500,"from":0}',
 '{"cmd":"map","storage":"body","offset":0,"from":999}',
 '{"cmd":"locate","offset":15}',
 '{"cmd":"paragraph","storage":"body","offset":14}',
 '{"cmd":"graphemes","storage":"title"}',
 '{"cmd":"visible","ranges":[{"storage":"body","offset":0,"length":5}]}',
 '{"cmd":"contexts","scope":"visibleArea"}',
 '{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"x","origin":"peer","basis":0}',
 '{"cmd":"edit","storage":"body","offset":3,"length":0,"text":"y","origin":"peer","basis":1}',
 '{"cmd":"contexts","scope":"fullDocument"}',
 '{"cmd":"replace","context":"$1","offset":0,"length":3,"text":"no"}',
 '{"cmd":"replace","context":"$2","offset":0,"length":999,"text":"no"}',
 '{"cmd":"replace","context":"$2","offset":0,"length":1,"text":"no","basis":7}',
 '{"cmd":"replace","context":"00000000-0000-0000-0000-000000000000","offset":0,"length":1,"text":"no"}',
 '{"cmd":"edit","storage":"title","offset":7,"length":1,"text":"x"}',
 '{"cmd":"edit","storage":"nope","offset":0,"length":0,"text":"x"}',
 '{"cmd":"state","state":"interactiveStreaming"}',
 '{"cmd":"end"}', '{"cmd":"end"}', '{"cmd":"undo"}', '{"cmd":"revert"}',
 '{"cmd":"remove","storage":"code"}',
 '{"cmd":"storages"}',
 'not json', '{"cmd":"frob"}',
 # Attributes (rich text): added last, so that the lines above stay comparable
 # with the transcripts of builds before them.
 '{"cmd":"add","storage":"rich","text":"Title\\nSome bold 👋🏽 text.\\n","attributes":[{"offset":0,"length":6,"attributes":{"presentationIntent":[{"kind":"header","identity":1,"level":1}]}},{"offset":11,"length":4,"attributes":{"link":"https://example.com","inlinePresentationIntent":["stronglyEmphasized"]}}]}',
 '{"cmd":"setAttributes","storage":"rich","offset":16,"length":4,"attributes":{"font":"Menlo","size":12,"inlinePresentationIntent":["code"]}}',
 '{"cmd":"edit","storage":"rich","offset":15,"length":0,"text":"!","attributes":{}}',
 '{"cmd":"edit","storage":"rich","offset":21,"length":0,"text":"?"}',
 '{"cmd":"text","storage":"rich","attributes":true}',
 '{"cmd":"text","storage":"rich","range":{"offset":6,"length":10},"attributes":true}',
 '{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText","presentationIntent"]}',
 '{"cmd":"replace","context":"$2","offset":11,"length":4,"text":"BOLD","attributes":[{"offset":0,"length":4,"attributes":{"inlinePresentationIntent":["emphasized"]}}]}',
 '{"cmd":"text","storage":"rich","attributes":true}',
 '{"cmd":"undo"}',
 '{"cmd":"setAttributes","storage":"rich","offset":18,"length":1,"attributes":{"link":"x"}}',
 '{"cmd":"setAttributes","storage":"rich","offset":0,"length":1,"attributes":{"presentationIntent":[{"kind":"aside","identity":1}]}}',
 '{"cmd":"add","storage":"bad","text":"ab","attributes":[{"offset":0,"length":2,"attributes":{}},{"offset":1,"length":1,"attributes":{}}]}',
 '{"cmd":"add","storage":"bad","text":"ab","attributes":[{"offset":0,"length":3,"attributes":{"link":"x"}}]}',
 '{"cmd":"text","storage":"rich","attributes":true,"unit":"scalar"}',
 '{"cmd":"text","storage":"rich","attributes":true}',
 # Markdown: added after the attributes, for the same reason.
 '{"cmd":"contexts","scope":"fullDocument","resultOptions":["richText"],"format":"markdown"}',
 '{"cmd":"replace","context":"$2","offset":0,"length":5,"markdown":"**Heading** `x`"}',
 '{"cmd":"text","storage":"rich","attributes":true}',
 '{"cmd":"replace","context":"$2","offset":0,"length":0,"text":"x","markdown":"x"}',
 '{"cmd":"replace","context":"$2","offset":0,"length":0,"markdown":"x","attributes":[]}',
 '{"cmd":"replace","context":"$2","offset":0,"length":99,"markdown":"x"}',
 '{"cmd":"contexts","scope":"fullDocument","format":"html"}',
 '{"cmd":"undo"}',
 '{"cmd":"text","storage":"rich","attributes":true}',
 # Tracked ranges: added after the Markdown, for the same reason.
 '{"cmd":"track","storage":"title","ranges":[{"offset":6,"length":4},{"offset":0,"length":5}],"kind":"spelling","onTouch":"remove"}',
 '{"cmd":"track","storage":"title","ranges":[{"offset":11,"length":0}],"kind":"bookmark","bias":"right"}',
 '{"cmd":"track","storage":"title","ranges":[{"offset":2,"length":3}],"expand":"both"}',
 '{"cmd":"track","storage":"title","ranges":[{"offset":7,"length":2}]}',
 '{"cmd":"track","storage":"title","ranges":[{"offset":0,"length":1}],"expand":"sideways"}',
 '{"cmd":"track","storage":"nope","ranges":[]}',
 '{"cmd":"tracked","storage":"title"}',
 '{"cmd":"tracked","storage":"title","range":{"offset":5,"length":0}}',
 '{"cmd":"tracked","storage":"title","kind":"spelling","unit":"utf8"}',
 '{"cmd":"edit","storage":"title","offset":1,"length":1,"text":"R"}',
 '{"cmd":"edit","storage":"title","offset":11,"length":0,"text":"!"}',
 '{"cmd":"edit","storage":"title","offset":5,"length":0,"text":" "}',
 '{"cmd":"tracked","storage":"title"}',
 '{"cmd":"untrack","ids":[@0,@3]}',
 '{"cmd":"untrack","ids":[@0]}',
 '{"cmd":"tracked","storage":"title"}',
 # Suggestions: added after the tracked ranges, for the same reason.
 '{"cmd":"add","storage":"review","text":"Hi 👋🏽 there, teh sea.\\n"}',
 '{"cmd":"suggest","storage":"review","offset":15,"length":3,"kind":"spelling","explanation":"Possible spelling mistake","candidates":["the",{"text":"tea","attributes":[{"offset":0,"length":3,"attributes":{"inlinePresentationIntent":["emphasized"]}}]},{"markdown":"**thé**"}]}',
 '{"cmd":"suggest","storage":"review","offset":4,"length":2,"kind":"spelling","candidates":[]}',
 '{"cmd":"suggest","storage":"review","offset":0,"length":2,"kind":"style","candidates":[{"text":"Hey","attributes":[{"offset":0,"length":4,"attributes":{"link":"x"}}]}]}',
 '{"cmd":"select","ranges":[{"storage":"review","offset":15,"length":3}]}',
 '{"cmd":"contexts","scope":"userSelection"}',
 '{"cmd":"suggest","context":"$0","offset":8,"length":6,"kind":"grammar","candidates":["there"]}',
 '{"cmd":"suggestions","storage":"review"}',
 '{"cmd":"suggestions","context":"$0"}',
 '{"cmd":"preview","suggestion":#0,"candidate":1}',
 '{"cmd":"preview","suggestion":#0,"candidate":7}',
 '{"cmd":"suggestions","storage":"review","range":{"offset":15,"length":0}}',
 '{"cmd":"accept","suggestion":#0,"candidate":2}',
 '{"cmd":"text","storage":"review","attributes":true}',
 '{"cmd":"undo"}',
 '{"cmd":"reject","suggestion":#1}',
 '{"cmd":"suggest","context":"$0","offset":8,"length":6,"kind":"grammar","candidates":["there"]}',
 '{"cmd":"suggest","storage":"review","offset":15,"length":3,"kind":"spelling","candidates":["the"]}',
 '{"cmd":"edit","storage":"review","offset":16,"length":1,"text":"E"}',
 '{"cmd":"reject","suggestion":#0}',
 '{"cmd":"text","storage":"review","attributes":true}',
 # History: added after the suggestions, for the same reason.
 '{"cmd":"add","storage":"hist","text":"One two.\\n"}',
 '{"cmd":"select","ranges":[{"storage":"hist","offset":3,"length":0}]}',
 '{"cmd":"edit","storage":"hist","offset":3,"length":0,"text":" big"}',
 '{"cmd":"closeGroup"}',
 '{"cmd":"edit","storage":"hist","offset":7,"length":0,"text":"ger"}',
 '{"cmd":"edit","storage":"hist","offset":0,"length":0,"text":"So ","origin":"alice"}',
 '{"cmd":"closeGroup","origin":"alice"}',
 '{"cmd":"undo"}',
 '{"cmd":"text","storage":"hist"}',
 '{"cmd":"undo","origin":"alice","unit":"utf8"}',
 '{"cmd":"undo","origin":"alice"}',
 '{"cmd":"redo","origin":"alice"}',
 '{"cmd":"undo"}',
 '{"cmd":"redo"}',
 '{"cmd":"text","storage":"hist"}',
 '{"cmd":"undo","origin":7}',
 '{"cmd":"quit"}',
]
for r in script: send(r)
p.wait()
