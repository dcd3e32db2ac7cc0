# Exact values of the toy dice games of agents/tests/toys, by dynamic programming with exact
# fractions, written independently of the Rust code. Run: python3 agents/tests/data/toy_values.py
from fractions import Fraction as F
from functools import lru_cache
T,FACES,CAP=7,3,4
@lru_cache(None)
def pig(s0,s1,tt,pl,turns,rolling):
    sc=[s0,s1]
    for p in (0,1):
        if sc[p]>=T: return 1 if p==0 else -1
    if turns>=CAP: return 0
    if rolling:
        tot=F(0)
        for f in range(1,FACES+1):
            if f==1: v=pig(s0,s1,0,1-pl,turns+1,False)
            else:
                t2=tt+f; sc2=list(sc)
                if sc2[pl]+t2>=T: sc2[pl]+=t2; t2=0
                v=pig(sc2[0],sc2[1],t2,pl,turns,False)
            tot+=F(v)/FACES
        return tot
    roll=pig(s0,s1,tt,pl,turns,True)
    sc2=list(sc); sc2[pl]+=tt
    hold=pig(sc2[0],sc2[1],0,1-pl,turns+1,False)
    return max(roll,hold) if pl==0 else min(roll,hold)
for args in [((0,0),0,0,0,False),((0,0),0,1,0,False),((3,5),2,1,1,False),((4,2),2,0,2,True),((6,6),0,0,3,False)]:
    (a,b),tt,pl,turns,r=args
    v=pig(a,b,tt,pl,turns,r); print("pig",args,v,float(v))
HOME=5
@lru_cache(None)
def race(t0,t1,pl,throw):
    toks=[t0,t1]
    for p in (0,1):
        if all(x==HOME for x in toks[p]): return 1 if p==0 else -1
    if throw==0:
        return sum(F(race(t0,t1,pl,f))/3 for f in (1,2,3))
    vals=[]
    mine=toks[pl]
    for i,t in enumerate(mine):
        if t<HOME and t not in mine[:i]:
            nm=list(mine); nm[i]=min(t+throw,HOME)
            nt=list(toks); nt[pl]=tuple(nm)
            npl=pl if throw==3 else 1-pl
            vals.append(race(nt[0],nt[1],npl,0))
    return max(vals) if pl==0 else min(vals)
for args in [((3,3,4),(2,4,5),0,0),((3,3,4),(2,4,5),1,2),((2,3,4),(1,3,4),1,0),((1,4,5),(2,3,3),0,3)]:
    v=race(*args); print("race",args,v,float(v))
